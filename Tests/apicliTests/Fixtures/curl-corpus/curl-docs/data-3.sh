curl -d @filename http://localhost:28139/docs
