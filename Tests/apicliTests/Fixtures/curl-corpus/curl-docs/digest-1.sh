curl -u name:password --digest http://localhost:28139/docs
