curl --form-string "name=data" http://localhost:28139/docs
