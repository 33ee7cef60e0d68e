curl -d "name=curl" http://localhost:28139/docs
