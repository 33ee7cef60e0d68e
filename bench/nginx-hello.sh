# Sourced by the A/B scripts (bench/ab.sh, bench/ab-load.sh): `nginx_hello DIR WORKERS` starts an nginx
# on a free 127.0.0.1 port serving {"hello":"world"} at /hello (`return 200`, no file), keeps its pid in
# `pids` (the caller's EXIT trap kills them) and sets `nginx_port`.
free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }

nginx_hello() {
  local dir=$1 workers=${2:-1}
  mkdir -p "$dir/tmp"
  nginx_port=$(free_port)
  cat >"$dir/nginx.conf" <<EOF
daemon off;
worker_processes $workers;
pid $dir/nginx.pid;
error_log $dir/error.log warn;
events { worker_connections 1024; }
http {
  access_log off;
  client_body_temp_path $dir/tmp; proxy_temp_path $dir/tmp; fastcgi_temp_path $dir/tmp;
  uwsgi_temp_path $dir/tmp; scgi_temp_path $dir/tmp;
  keepalive_requests 100000;
  server { listen 127.0.0.1:$nginx_port; location = /hello { default_type application/json; return 200 '{"hello":"world"}'; } }
}
EOF
  nginx -c "$dir/nginx.conf" -p "$dir" & pids+=($!)
}
