curl -b cookiefile -c cookiefile http://localhost:28139/docs
