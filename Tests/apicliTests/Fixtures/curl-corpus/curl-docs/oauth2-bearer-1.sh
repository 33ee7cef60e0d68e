curl --oauth2-bearer "mF_9.B5f-4.1JqM" http://localhost:28139/docs
