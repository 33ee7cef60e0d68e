curl --data-urlencode @fileonly http://localhost:28139/docs
