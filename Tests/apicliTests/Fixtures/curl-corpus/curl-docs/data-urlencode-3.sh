curl --data-urlencode name@file http://localhost:28139/docs
