curl --compressed http://localhost:28139/docs
