curl --data-raw "hello" http://localhost:28139/docs
