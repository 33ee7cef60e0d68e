curl --data-ascii @file http://localhost:28139/docs
