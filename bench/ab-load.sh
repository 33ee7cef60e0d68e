#!/usr/bin/env bash
# A/B of two apicli binaries on `make bench`'s two load goals, runs alternating on the same
# machine (each line says the load average when it started: compare lines of one round only).
#
#   bench/ab-load.sh OLD_BINARY NEW_BINARY [ROUNDS] [SECONDS]
#
# Each round: the open model at 5000/s (RATE=N/s to change) for SECONDS (default 10) against nginx `return 200`
# (achieved rate, schedule lag p50/p99/max, latency p99, CPU user+sys), old then new; then the
# closed model with 8 users against Tests/Servers/delay-server.c sleeping 20 ms, beside wrk -t2 -c8
# (p50s). APICLI_* variables are passed on, so one binary can be run twice with a switch, e.g.
# `A_ENV=APICLI_OPEN_SCHEDULER=pool bench/ab-load.sh bin bin`. Needs nginx, wrk and cc
# (`make bench-deps`); everything on loopback, output in bench/out/ab/.
set -uo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
[[ $# -ge 2 ]] || { sed -n 2,12p "$0"; exit 64; }
a=$1 b=$2 rounds=${3:-3} secs=${4:-10} rate=${RATE:-5000/s}
out=$PWD/bench/out/ab
mkdir -p "$out/ng/tmp" "$out/targets"
export NO_PROXY="127.0.0.1,localhost" no_proxy="127.0.0.1,localhost" PATH="$PATH:/usr/sbin"
pids=()
trap 'for p in "${pids[@]}"; do kill "$p" 2>/dev/null; done; wait 2>/dev/null' EXIT
. "$(dirname "${BASH_SOURCE[0]}")/nginx-hello.sh"

nginx_hello "$out/ng" 2
port=$nginx_port
delay_bin=bench/out/delay-server
[[ -x $delay_bin && $delay_bin -nt Tests/Servers/delay-server.c ]] || cc -O2 -pthread -o "$delay_bin" Tests/Servers/delay-server.c
rm -f "$out/delay.url"
"$delay_bin" --delay-ms 20 --lifetime 86400 >"$out/delay.url" & pids+=($!)
for _ in $(seq 50); do [[ -s $out/delay.url ]] && curl -s -o /dev/null "http://127.0.0.1:$port/hello" && break; sleep 0.1; done
printf 'baseURL: http://127.0.0.1:%s\ntargets:\n  hello: { path: /hello }\n' "$port" >"$out/targets/ng.yaml"
printf 'baseURL: %s\ntargets:\n  delay: { path: /delay }\n' "$(cat "$out/delay.url")" >"$out/targets/dl.yaml"

# summary of one report: open model (lag) or closed (p50), with CPU from /usr/bin/time
summary() { python3 - "$@" <<'PY'
import json, sys
path, kind, secs, timef = sys.argv[1], sys.argv[2], float(sys.argv[3]), sys.argv[4]
r = json.load(open(path))
def pct(h, p):
    total = sum(c for _, c in h); need = total * p / 100; seen = 0
    for v, c in h:
        seen += c
        if seen >= need: return v / 1000
    return float("nan")
u, s = open(timef).read().split()[-2:]
cpu = float(u) + float(s); o = r["overall"]; n = max(o["requests"], 1)
if kind == "open":
    print("achieved %7.1f/s  lag p50 %8.2f p99 %9.2f max %9.2f ms  latency p99 %9.2f ms  CPU %5.2f s (%3.0f us/req)" % (
        o["requests"] / secs, pct(r["lag"], 50), pct(r["lag"], 99), r["lag"][-1][0] / 1000,
        pct(o["histogram"], 99), cpu, 1e6 * cpu / n))
else:
    print("p50 %6.2f ms  min %6.2f ms  CPU %5.2f s (%3.0f us/req)" % (pct(o["histogram"], 50), o["histogram"][0][0] / 1000, cpu, 1e6 * cpu / n))
PY
}
run() {  # label binary env kind args...
  local label=$1 bin=$2 env=$3 kind=$4; shift 4
  local la; la=$(cut -d' ' -f1 /proc/loadavg)
  env $env /usr/bin/time -f '%U %S' -o "$out/time" "$bin" load "$@" --targets "$out/targets" -q --json "$out/r.json" >/dev/null 2>"$out/err" \
    || { echo "$label: exit $? ($(head -c 300 "$out/err"))"; return; }
  printf '%-4s load %5s  %s\n' "$label" "$la" "$(summary "$out/r.json" "$kind" "$secs" "$out/time")"
}
wrk_p50() {  # p50 and min in ms from wrk's own histogram (microseconds)
  cat >"$out/wrk.lua" <<'LUA'
done = function(summary, latency, requests)
  io.write(string.format("p50 %6.2f ms  min %6.2f ms\n", latency:percentile(50) / 1000, latency.min / 1000))
end
LUA
  wrk -t2 -c8 -d"${secs}s" -s "$out/wrk.lua" "$(cat "$out/delay.url")/delay" 2>/dev/null | tail -n 1
}
echo "A = $a ${A_ENV:-}"
echo "B = $b ${B_ENV:-}"
for i in $(seq "$rounds"); do
  echo "== round $i: open model, --rate $rate --duration ${secs}s --max-in-flight 2000"
  run A "$a" "${A_ENV:-}" open ng.hello --rate "$rate" --duration "${secs}s" --max-in-flight 2000
  run B "$b" "${B_ENV:-}" open ng.hello --rate "$rate" --duration "${secs}s" --max-in-flight 2000
  echo "== round $i: closed model, 8 users, 20 ms delay server"
  printf 'wrk  load %5s  %s\n' "$(cut -d' ' -f1 /proc/loadavg)" "$(wrk_p50)"
  run A "$a" "${A_ENV:-}" closed dl.delay --users 8 --duration "${secs}s"
  run B "$b" "${B_ENV:-}" closed dl.delay --users 8 --duration "${secs}s"
done
