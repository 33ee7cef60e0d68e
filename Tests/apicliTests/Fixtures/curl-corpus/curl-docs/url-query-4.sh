curl --url-query @fileonly http://localhost:28139/docs
