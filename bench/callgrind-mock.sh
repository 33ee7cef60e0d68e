#!/usr/bin/env bash
# Instructions a request (user space, callgrind) of the mock server: `apicli mock` under callgrind
# answers one keep-alive client (Python's http.client) that sends N, then in a second run 2N, GETs
# of one stubbed target; the difference over N, so start-up drops out. bench/callgrind.sh's
# companion for the mock row (docs/dev/benchmarks.md, "Instructions a request").
#
#   bench/callgrind-mock.sh OLD_BINARY NEW_BINARY [...]      # N=1000
set -uo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
[[ $# -ge 1 ]] || { sed -n 2,7p "$0"; exit 64; }
out=$PWD/bench/out/callgrind
mkdir -p "$out/mock"
export NO_PROXY="127.0.0.1,localhost" no_proxy="127.0.0.1,localhost"
unset APICLI_TARGETS APICLI_ENV
. "$(dirname "${BASH_SOURCE[0]}")/nginx-hello.sh"  # free_port
printf 'baseURL: http://127.0.0.1:1\nvalidate: success\ntargets:\n  hello: { path: /hello, sample: { json: { hello: world } } }\n' >"$out/mock/bench.yaml"
count() { grep -o 'Collected : [0-9]*' "$1" | grep -o '[0-9]*$'; }
for bin in "$@"; do
  b=$(basename "$bin") s="$out/$(basename "$bin").nodebug"
  objcopy --strip-debug "$bin" "$s"
  for n in 1000 2000; do
    port=$(free_port)
    valgrind --tool=callgrind --callgrind-out-file="$out/$b.mock.$n.out" "$s" mock --targets "$out/mock" --port "$port" \
      >/dev/null 2>"$out/$b.mock.$n.err" & pid=$!
    for _ in $(seq 100); do curl -s -o /dev/null "http://127.0.0.1:$port/hello" && break; sleep 0.2; done
    python3 - "$port" "$n" <<'PY'
import http.client, sys
c = http.client.HTTPConnection("127.0.0.1", int(sys.argv[1]))
for _ in range(int(sys.argv[2])):
    c.request("GET", "/hello"); c.getresponse().read()
PY
    kill -INT "$pid"; wait "$pid"
  done
  printf '%-28s mock %7d instructions/request\n' "$b" $(( ($(count "$out/$b.mock.2000.err") - $(count "$out/$b.mock.1000.err")) / 1000 ))
done
