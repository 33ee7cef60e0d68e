curl -T file http://localhost:28139/docs
