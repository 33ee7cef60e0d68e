#!/usr/bin/env bash
# Benchmark for issue 5's goal: `apicli check` over a 1,000-target suite against a local server
# finishes in under 2 s. Not a test: it prints the time and whether the goal was met.
#
#   bench/check.sh [TARGETS] [JOBS]     # defaults: 1000 targets, --jobs 16; release build
#
# The server is Tests/Servers/flaky-server.py (127.0.0.1, free port, 120 s lifetime), whose /ok/N paths
# answer 200 at once. Output goes to bench/out/.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

count="${1:-1000}"
jobs="${2:-16}"
out=bench/out
mkdir -p "$out/targets"

swift build -c release --product apicli >&2
bin=.build/release/apicli

python3 Tests/Servers/flaky-server.py --lifetime 120 >"$out/server.url" &
server=$!
trap 'kill "$server" 2>/dev/null || true' EXIT
for _ in $(seq 50); do [[ -s $out/server.url ]] && break; sleep 0.1; done
url="$(cat "$out/server.url")"

{
  echo "baseURL: $url"
  echo "validate: success"
  echo "targets:"
  for ((i = 0; i < count; i++)); do
    echo "  t$i: { path: /ok/$i, expect: { status: 200, json: { \"\$.calls\": 1 } } }"
  done
} >"$out/targets/bench.yaml"

start=$(date +%s.%N)
set +e
NO_PROXY=127.0.0.1 "$bin" check --targets "$out/targets" --jobs "$jobs" --json "$out/report.json" >"$out/stdout.txt"
rc=$?
set -e
end=$(date +%s.%N)
seconds=$(echo "$end - $start" | bc)
tail -n 1 "$out/stdout.txt"
echo "check: $count targets, --jobs $jobs: ${seconds}s (exit $rc); goal < 2 s: $(echo "$seconds < 2" | bc | sed 's/1/met/;s/0/NOT met/')"
