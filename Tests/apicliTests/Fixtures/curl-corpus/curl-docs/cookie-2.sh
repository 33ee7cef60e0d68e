curl -b cookiefile http://localhost:28139/docs
