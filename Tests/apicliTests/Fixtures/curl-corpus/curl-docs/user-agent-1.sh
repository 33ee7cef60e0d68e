curl -A "Agent 007" http://localhost:28139/docs
