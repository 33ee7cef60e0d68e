curl --json @- http://localhost:28139/docs < json.txt
