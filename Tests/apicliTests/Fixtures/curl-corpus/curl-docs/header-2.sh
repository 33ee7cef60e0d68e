curl -H "User-Agent: yes-please/2000" http://localhost:28139/docs
