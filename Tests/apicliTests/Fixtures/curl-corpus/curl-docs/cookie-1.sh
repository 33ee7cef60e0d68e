curl -b "" http://localhost:28139/docs
