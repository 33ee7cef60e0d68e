curl --max-time 10 http://localhost:28139/docs
