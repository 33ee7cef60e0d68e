curl -u user:secret http://localhost:28139/docs
