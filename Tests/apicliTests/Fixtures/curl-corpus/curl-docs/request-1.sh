curl --request "DELETE" http://localhost:28139/docs
