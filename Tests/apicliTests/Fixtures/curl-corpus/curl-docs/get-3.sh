curl --get -I -d "tool=curl" http://localhost:28139/docs
