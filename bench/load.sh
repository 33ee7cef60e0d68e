# `make bench`, part 7: apicli load beside wrk. Sourced by bench/run.sh (uses its bin, out, t,
# nginx_url, row, have, timed, pids). Everything on loopback.
echo "== 7. load: apicli load beside wrk"
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

if [[ -n $nginx_url ]]; then
  printf 'baseURL: %s\ntargets:\n  hello: { path: /hello }\n' "$nginx_url" >"$lt/ng.yaml"
  # 6a. closed model, 32 users, against wrk -t2 -c32
  "$bin" load ng.hello --targets "$lt" --users 32 --duration 10s -q --json "$out/load-closed.json" >"$out/load-closed.txt" 2>&1
  closed_rps=$(load_field "$out/load-closed.json" overall.throughput)
  wrk32=""
  have wrk && wrk32=$(wrk -t2 -c32 -d10s "$nginx_url/hello" 2>/dev/null | awk '/Requests\/sec/ {print $2}')
  row "wrk -t2 -c32 -d10s /hello" "${wrk32:-n/a} req/s" "" ""
  if have hey; then  # another load tool (Debian's hey), same scenario: 32 connections, 10 s
    hey -z 10s -c 32 "$nginx_url/hello" >"$out/hey.txt" 2>&1
    hey_rps=$(awk '/Requests\/sec/ {print $2}' "$out/hey.txt")
    hey_p99=$(awk '$1 == "99%" {print $3 * 1000}' "$out/hey.txt")
    row "hey -z 10s -c 32 /hello" "${hey_rps:-n/a} req/s" "" "p99 ${hey_p99:-n/a} ms"
  fi
  row "apicli load --users 32 --duration 10s" "$closed_rps req/s" "" \
    "$(python3 -c "print('%.0f%%' % (100 * $closed_rps / float('${wrk32:-0}' or 'inf')))" 2>/dev/null) of wrk (goal >= 50%); p99 $(load_pct "$out/load-closed.json" overall.histogram 99) ms"
  # 6b. open model at 5000/s for 20 s; memory at 10 s and 60 s
  read -r o20_s o20_kib o20_rc <<<"$(timed "$bin" load ng.hello --targets "$lt" --rate 5000/s --duration 20s --max-in-flight 2000 -q --json "$out/load-open.json")"
  achieved=$(python3 -c "import json; r=json.load(open('$out/load-open.json')); print('%.1f' % (r['overall']['requests'] / 20.0))")
  row "apicli load --rate 5000/s --duration 20s" "$achieved req/s" "$((o20_kib / 1024)) MiB" \
    "exit $o20_rc; $(python3 -c "print('%.2f%%' % (100 * abs($achieved - 5000) / 5000))") off the asked rate (goal <= 1%); schedule lag p99 $(load_pct "$out/load-open.json" lag 99) ms (goal < 5 ms); latency p99 $(load_pct "$out/load-open.json" overall.histogram 99) ms"
  read -r _ o10_kib _ <<<"$(timed "$bin" load ng.hello --targets "$lt" --rate 5000/s --duration 10s --max-in-flight 2000 -q)"
  read -r _ o60_kib _ <<<"$(timed "$bin" load ng.hello --targets "$lt" --rate 5000/s --duration 60s --max-in-flight 2000 -q)"
  row "apicli load --rate 5000/s: peak RSS at 10 s vs 60 s" "" "$((o10_kib / 1024)) / $((o60_kib / 1024)) MiB" \
    "$(python3 -c "print('%.2fx' % ($o60_kib / $o10_kib))") (goal <= 1.2x)"
else
  row "apicli load against nginx" "n/a" "" "nginx missing"
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
