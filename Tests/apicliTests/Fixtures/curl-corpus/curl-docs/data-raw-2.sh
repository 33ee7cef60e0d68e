curl --data-raw "@at@at@" http://localhost:28139/docs
