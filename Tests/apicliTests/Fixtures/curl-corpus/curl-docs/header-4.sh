curl -H @headers.txt http://localhost:28139/docs
