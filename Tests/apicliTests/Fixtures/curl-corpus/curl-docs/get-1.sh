curl --get http://localhost:28139/docs
