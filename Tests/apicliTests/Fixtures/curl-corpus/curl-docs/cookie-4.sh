curl -b name=Jane http://localhost:28139/docs
