curl --max-time 2.92 http://localhost:28139/docs
