curl -d "name=curl" -d "tool=cmdline" http://localhost:28139/docs
