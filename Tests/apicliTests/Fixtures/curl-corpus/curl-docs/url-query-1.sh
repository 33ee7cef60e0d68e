curl --url-query name=val http://localhost:28139/docs
