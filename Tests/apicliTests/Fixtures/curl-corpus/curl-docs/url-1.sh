curl --url http://localhost:28139/docs
