curl -s http://localhost:28139/docs
