#!/usr/bin/env bash
# How far `apicli load` is from what SwiftNIO itself allows: the closed model with 32 connections
# against nginx (2 workers, `return 200`), in turn, round after round: bench/nio-floor (a bare NIO
# client: a prebuilt GET written from the read handler as each response completes, nothing else),
# the same with an async task a connection awaiting each response (`--await`: resumed as a job queued
# on the loop; `--await-inline`: run at once inside the handler's read), wrk, h2load --h1 (the goal
# row `ahead of h2load`), and apicli.
# Prints each one's rate and CPU (user + system) a request; the client's CPU is what the goal row
# `load >= 0.85x wrk` is about (nginx takes the rest of the two cores).
#
#   bench/nio-floor.sh APICLI_BINARY [ROUNDS] [SECONDS]     # default 3 rounds of 3 s
#
# Builds bench/nio-floor (its own SwiftPM package, swift-nio from the machine's copy) into
# bench/out/nio-floor. Needs nginx and wrk (`make bench-deps`); loopback only.
set -uo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
[[ $# -ge 1 ]] || { sed -n 2,10p "$0"; exit 64; }
bin=$1 rounds=${2:-3} secs=${3:-3}
out=$PWD/bench/out/nio-floor-run
mkdir -p "$out/ng" "$out/targets"
export NO_PROXY="127.0.0.1,localhost" no_proxy="127.0.0.1,localhost" PATH="$PATH:/usr/sbin"
unset APICLI_TARGETS APICLI_ENV
(cd bench/nio-floor && swift build -c release --scratch-path "$PWD/../out/nio-floor" >"$out/build.log" 2>&1) \
  || { echo "nio-floor: build failed (bench/out/nio-floor-run/build.log)" >&2; exit 1; }
floor=$PWD/bench/out/nio-floor/release/nio-floor
pids=()
trap 'for p in "${pids[@]}"; do kill "$p" 2>/dev/null; done; wait 2>/dev/null' EXIT
. bench/nginx-hello.sh
nginx_hello "$out/ng" 2
url=http://127.0.0.1:$nginx_port
for _ in $(seq 50); do curl -s -o /dev/null "$url/hello" && break; sleep 0.1; done
printf 'baseURL: %s\ntargets:\n  hello: { path: /hello }\n' "$url" >"$out/targets/ng.yaml"
# CPU (user + system, from GNU time) a request, in microseconds.
per() { python3 -c "import sys; u, s = map(float, open(sys.argv[1]).read().split()); print('%.2f' % ((u + s) * 1e6 / float(sys.argv[2])))" "$@"; }
for r in $(seq "$rounds"); do
  /usr/bin/time -f '%U %S' -o "$out/f.cpu" "$floor" "$nginx_port" 32 "$secs" >"$out/f.txt"
  f_n=$(awk '{print $1}' "$out/f.txt") f_rps=$(awk '{print $6}' "$out/f.txt")
  /usr/bin/time -f '%U %S' -o "$out/fa.cpu" "$floor" --await "$nginx_port" 32 "$secs" >"$out/fa.txt"
  fa_n=$(awk '{print $1}' "$out/fa.txt") fa_rps=$(awk '{print $6}' "$out/fa.txt")
  /usr/bin/time -f '%U %S' -o "$out/fi.cpu" "$floor" --await-inline "$nginx_port" 32 "$secs" >"$out/fi.txt"
  fi_n=$(awk '{print $1}' "$out/fi.txt") fi_rps=$(awk '{print $6}' "$out/fi.txt")
  /usr/bin/time -f '%U %S' -o "$out/w.cpu" wrk -t2 -c32 -d"${secs}s" "$url/hello" >"$out/w.txt" 2>&1
  w_n=$(awk '/requests in/ {print $1}' "$out/w.txt") w_rps=$(awk '/Requests\/sec/ {print $2}' "$out/w.txt")
  h_rps=0 h_cpu=n/a
  if command -v h2load >/dev/null; then  # the goal row's other peer (bench/load.sh: h2load --h1 -t2 -c32)
    /usr/bin/time -f '%U %S' -o "$out/h.cpu" h2load --h1 -t2 -c32 -D "$secs" "$url/hello" >"$out/h.txt" 2>&1
    h_n=$(awk '/^requests:/ {print $2}' "$out/h.txt") h_rps=$(awk '/^finished in/ {print $4}' "$out/h.txt")
    [[ -n $h_n && -n $h_rps ]] && h_cpu=$(per "$out/h.cpu" "$h_n") || h_rps=0  # a failed run: 0, n/a
  fi
  /usr/bin/time -f '%U %S' -o "$out/a.cpu" "$bin" load --targets "$out/targets" --users 32 --duration "${secs}s" --json "$out/a.json" >/dev/null 2>&1
  a_n=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["overall"]["requests"])' "$out/a.json")
  a_rps=$(python3 -c "print('%.0f' % ($a_n / $secs))")
  printf 'round %d  nio-floor %7.0f req/s %6s us  --await %7.0f req/s %6s us  --await-inline %7.0f req/s %6s us  wrk %7.0f req/s %6s us  h2load %7.0f req/s %6s us  apicli %7.0f req/s %6s us  (CPU a request)\n' "$r" \
    "$f_rps" "$(per "$out/f.cpu" "$f_n")" "$fa_rps" "$(per "$out/fa.cpu" "$fa_n")" "$fi_rps" "$(per "$out/fi.cpu" "$fi_n")" "$w_rps" "$(per "$out/w.cpu" "$w_n")" "$h_rps" "$h_cpu" "$a_rps" "$(per "$out/a.cpu" "$a_n")"
done
