curl -H "Host:" http://localhost:28139/docs
