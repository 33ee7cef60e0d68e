curl --url-query "+name=%20foo" http://localhost:28139/docs
