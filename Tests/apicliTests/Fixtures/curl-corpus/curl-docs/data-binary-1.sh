curl --data-binary @filename http://localhost:28139/docs
