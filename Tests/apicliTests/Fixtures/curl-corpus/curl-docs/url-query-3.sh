curl --url-query name@file http://localhost:28139/docs
