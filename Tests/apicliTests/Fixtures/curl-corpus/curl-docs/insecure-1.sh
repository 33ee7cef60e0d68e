curl --insecure http://localhost:28139/docs
