curl --referer ";auto" -L http://localhost:28139/docs
