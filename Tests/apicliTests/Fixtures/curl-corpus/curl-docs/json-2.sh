curl --json '{ "drink":' --json ' "coffee" }' http://localhost:28139/docs
