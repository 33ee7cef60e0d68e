curl -H "X-First-Name: Joe" http://localhost:28139/docs
