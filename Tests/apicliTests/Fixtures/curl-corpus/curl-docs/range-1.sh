curl --range 22-44 http://localhost:28139/docs
