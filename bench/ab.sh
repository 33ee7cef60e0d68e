#!/usr/bin/env bash
# A/B of two apicli binaries on `make bench`'s rows that do not need the peers: start-up, the stub,
# a live call, loading 10,000 targets, one call in a 10,000-target file, `check` of GETs, the mock,
# and the closed load model; A and B alternate on the same machine, each row one round at a time.
#
#   bench/ab.sh OLD_BINARY NEW_BINARY [ROUNDS]     # default 3 rounds
#
# Needs hyperfine, nginx and wrk (`make bench-deps`); everything on loopback, output in bench/out/ab2/.
# Ratios are B/A per round (below 1: B is faster); compare rounds of one run only.
set -uo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
[[ $# -ge 2 ]] || { sed -n 2,9p "$0"; exit 64; }
rounds=${3:-3}
out=$PWD/bench/out/ab2
mkdir -p "$out/ng/tmp" "$out/targets" "$out/load" "$out/suite"
# Fresh copies of both, written now: a binary file's page-cache state moves its start-up by ~10 %
# here (bench/run.sh says more), and A/B should compare the code, not how long each file has lived.
cp "$1" "$out/A" && cp "$2" "$out/B" || { echo "ab: cannot copy the binaries into $out" >&2; exit 1; }
a=$out/A b=$out/B
echo "A = $1, B = $2 (each measured as a fresh copy)"
export NO_PROXY="127.0.0.1,localhost" no_proxy="127.0.0.1,localhost" PATH="$PATH:/usr/sbin"
unset APICLI_TARGETS APICLI_ENV
pids=()
trap 'for p in "${pids[@]}"; do kill "$p" 2>/dev/null; done; wait 2>/dev/null' EXIT
. "$(dirname "${BASH_SOURCE[0]}")/nginx-hello.sh"
median() { python3 -c 'import json,sys; r=json.load(open(sys.argv[1]))["results"]; print(" ".join("%.2f" % (x["median"]*1000) for x in r))' "$1"; }

# Two workers, as `make bench` runs it: with one, nginx is the bound of the load and check rows.
nginx_hello "$out/ng" 2
port=$nginx_port
url=http://127.0.0.1:$port
for _ in $(seq 50); do curl -s -o /dev/null "$url/hello" && break; sleep 0.1; done
printf 'baseURL: %s\nvalidate: success\ntargets:\n  hello: { path: /hello, sample: { json: { hello: world } } }\n' "$url" >"$out/targets/bench.yaml"
python3 bench/gen-targets.py 10000 >"$out/load/gen.yaml"
{
  echo "baseURL: $url"; echo "validate: success"; echo "targets:"
  for ((i = 0; i < 10000; i++)); do echo "  t$i: { path: /hello, task: { query: { i: $i } }, expect: { status: 200 } }"; done
} >"$out/suite/suite.yaml"

hf() {  # label runs command-with-BIN
  local label=$1 runs=$2 cmd=$3
  for r in $(seq "$rounds"); do
    hyperfine -N --warmup 2 --runs "$runs" --export-json "$out/hf.json" "${cmd//BIN/$a}" "${cmd//BIN/$b}" >/dev/null 2>&1 || { echo "$label: failed"; return; }
    read -r ma mb <<<"$(median "$out/hf.json")"
    printf '%-44s round %d  A %8s ms  B %8s ms  B/A %s\n' "$label" "$r" "$ma" "$mb" "$(python3 -c "print('%.3f' % ($mb/$ma))")"
  done
}
hf "--version" 40 "BIN --version"
hf "call --stub" 40 "BIN call bench.hello --stub --targets $out/targets"
hf "call (live, nginx)" 40 "BIN call bench.hello --targets $out/targets"
hf "validate, 10,000 targets" 10 "BIN validate $out/load/gen.yaml"
hf "list, 10,000 targets" 10 "BIN list --targets $out/load"
hf "call --stub of one of 10,000 targets" 10 "BIN call gen.t5000 --stub --targets $out/load"

secs() { /usr/bin/time -f '%e' -o "$out/t" "$@" >/dev/null 2>&1; cat "$out/t"; }
for r in $(seq "$rounds"); do
  sa=$(secs "$a" check --targets "$out/suite" --jobs 16); sb=$(secs "$b" check --targets "$out/suite" --jobs 16)
  printf '%-44s round %d  A %8s s   B %8s s   B/A %s\n' "check --jobs 16, 10,000 GETs" "$r" "$sa" "$sb" "$(python3 -c "print('%.3f' % ($sb/$sa))")"
done
for r in $(seq "$rounds"); do
  line=() cpu=()
  for bin in "$a" "$b"; do
    /usr/bin/time -f "%U %S" -o "$out/l.cpu" "$bin" load bench.hello --targets "$out/targets" --users 32 --duration 5s -q --json "$out/l.json" >/dev/null 2>&1
    line+=("$(python3 -c 'import json,sys; o=json.load(open(sys.argv[1]))["overall"]; print("%.0f" % (o["requests"]/5))' "$out/l.json")")
    # apicli's own CPU (user + system) a request: what the client spends, whatever nginx's share of the cores
    cpu+=("$(python3 -c 'import json,sys; o=json.load(open(sys.argv[1]))["overall"]; u,s=map(float,open(sys.argv[2]).read().split()); print("%.2f" % ((u+s)*1e6/o["requests"]))' "$out/l.json" "$out/l.cpu")")
  done
  printf '%-44s round %d  A %8s/s  B %8s/s  B/A %s   CPU a request: A %s us  B %s us\n' "load --users 32 5s (req/s)" "$r" "${line[0]}" "${line[1]}" "$(python3 -c "print('%.3f' % (${line[1]}/${line[0]}))")" "${cpu[0]}" "${cpu[1]}"
done
for r in $(seq "$rounds"); do
  line=()
  for bin in "$a" "$b"; do
    mp=$(free_port)
    "$bin" mock --targets "$out/targets" --port "$mp" >/dev/null 2>&1 & mpid=$!
    for _ in $(seq 50); do curl -s -o /dev/null "http://127.0.0.1:$mp/hello" && break; sleep 0.1; done
    line+=("$(wrk -t2 -c32 -d5s "http://127.0.0.1:$mp/hello" 2>/dev/null | awk '/Requests\/sec/ {print $2}')")
    kill $mpid; wait $mpid 2>/dev/null
  done
  printf '%-44s round %d  A %8s/s  B %8s/s  B/A %s\n' "mock, wrk -c32 5s (req/s)" "$r" "${line[0]}" "${line[1]}" "$(python3 -c "print('%.3f' % (${line[1]}/${line[0]}))")"
done
