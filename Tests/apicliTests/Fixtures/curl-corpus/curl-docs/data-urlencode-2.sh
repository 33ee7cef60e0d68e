curl --data-urlencode =encodethis http://localhost:28139/docs
