curl --json '{ "drink": "coffee" }' http://localhost:28139/docs
