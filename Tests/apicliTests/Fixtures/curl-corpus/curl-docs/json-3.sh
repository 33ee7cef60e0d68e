curl --json @prepared http://localhost:28139/docs
