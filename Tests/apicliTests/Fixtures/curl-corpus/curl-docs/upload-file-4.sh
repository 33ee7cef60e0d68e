curl -T file -T file2 http://localhost:28139/docs http://localhost:28139/docs
