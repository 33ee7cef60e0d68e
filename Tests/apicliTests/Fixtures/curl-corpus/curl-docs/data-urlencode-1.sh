curl --data-urlencode name=val http://localhost:28139/docs
