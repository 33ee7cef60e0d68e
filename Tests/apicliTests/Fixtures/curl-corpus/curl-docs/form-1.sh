curl --form "name=curl" --form "file=@loadthis" http://localhost:28139/docs
