curl --get -d "tool=curl" -d "age=old" http://localhost:28139/docs
