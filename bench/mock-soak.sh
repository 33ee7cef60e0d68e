# Sourced by bench/run.sh (section 8): `apicli mock --validate` soaked by hostile clients on loopback.
# For SOAK_SECONDS (30): wrk at full load, ~2,000 idle connections held open
# (Tests/Servers/hostile-client.py idle), a 60 KB path every second, clients that pipeline GETs of a
# 1 MB sample and never read (one of 100 requests held for the whole soak, and one after another
# pipelining without end), and a ReDoS body every second (`--validate` against a request schema's
# `pattern: '^(a+)+$'`, "aaa…a!": answered 400 at the regex work limit); meanwhile a normal request
# every second must be answered within 3 s and every ReDoS body refused within 3 s, the mock must
# never reload to 0 routes, and its RSS must stay flat (peak at most 64 MiB over the start).
# The row ends "ok" or "FAIL: …".
#
# Standalone (only this part, no release build needed): bash bench/mock-soak.sh [PATH/TO/apicli]
# (default .build/release/apicli, else .build/debug/apicli); exits 1 when the row says FAIL.
if ! declare -F row >/dev/null; then
  cd "$(dirname "${BASH_SOURCE[0]}")/.." || exit 1
  bin=${1:-$([[ -x .build/release/apicli ]] && echo .build/release/apicli || echo .build/debug/apicli)}
  have() { command -v "$1" >/dev/null 2>&1; }
  free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }
  row() { printf '| %s | %s | %s | %s |\n' "$1" "$2" "$3" "$4"; }
  export NO_PROXY="127.0.0.1,localhost" no_proxy="127.0.0.1,localhost"
  pids=()
  trap 'for p in "${pids[@]}"; do kill "$p" 2>/dev/null; done' EXIT
  soak_alone=1
fi
echo "== 8. mock soak"
soak=${SOAK_SECONDS:-30}
soak_dir=$(mktemp -d)
mkdir -p "$soak_dir/targets/contracts"
cat >"$soak_dir/targets/api.yaml" <<'YAML'
baseURL: http://127.0.0.1:9
targets:
  hello: { path: /hello, sample: { status: 200, json: { hello: world } } }
  user: { path: "/users/{name}", sample: { status: 200, json: { name: "{name}" } } }
  big: { path: /big, sample: { status: 200, headers: { Content-Type: application/octet-stream }, file: big.bin } }
  name:
    method: POST
    path: /names
    expect: { schema: { openapi: contracts/openapi.yaml, operation: addName } }
    sample: { status: 201, json: { ok: true } }
YAML
cat >"$soak_dir/targets/contracts/openapi.yaml" <<'YAML'
openapi: 3.0.3
info: { title: soak, version: "1" }
paths:
  /names:
    post:
      operationId: addName
      requestBody:
        required: true
        content:
          application/json:
            schema: { type: object, properties: { name: { type: string, pattern: '^(a+)+$' } } }
      responses:
        "201": { description: added }
YAML
head -c 1048576 /dev/zero | tr '\0' b >"$soak_dir/targets/big.bin"
soak_port=$(free_port)
soak_bin="$(cd "$(dirname "$bin")" && pwd)/$(basename "$bin")"
(cd "$soak_dir" && exec "$soak_bin" mock --validate --port "$soak_port" -q) >/dev/null 2>"$soak_dir/mock.err" &
soak_pid=$!
pids+=("$soak_pid")
for _ in $(seq 100); do curl -s -o /dev/null "http://127.0.0.1:$soak_port/hello" && break; sleep 0.1; done
if ! kill -0 "$soak_pid" 2>/dev/null; then echo "bench: the mock did not start:" >&2; cat "$soak_dir/mock.err" >&2; fi
rss() { awk '/VmRSS/ { print $2 }' "/proc/$1/status" 2>/dev/null || echo 0; }
rss_start=$(rss "$soak_pid")
rss_peak=$rss_start
hostile=Tests/Servers/hostile-client.py
python3 $hostile idle "$soak_port" 2000 "$soak" >"$soak_dir/idle.out" 2>/dev/null &
idle_pid=$!
# 100 GETs of the 1 MB sample, never read (under the 128 waiting that close a connection): held
# back until the request timeout (30 s) closes it
python3 $hostile pipeline "$soak_port" /big "$soak" 100 >"$soak_dir/held.out" 2>/dev/null &
held_pid=$!
# GETs of the 1 MB sample pipelined without end, never read: closed, and again
(end=$((SECONDS + soak)); while ((SECONDS < end)); do python3 $hostile pipeline "$soak_port" /big 2 || sleep 1; done) >"$soak_dir/pipe.out" 2>/dev/null &
pipe_pid=$!
# a ReDoS body: "aaa…a!" (40 a's) against pattern ^(a+)+$, 2^40 steps for an unbounded backtracking engine
redos_body="{\"name\": \"$(head -c 40 /dev/zero | tr '\0' a)!\"}"
if have wrk; then wrk -t2 -c32 -d"${soak}s" "http://127.0.0.1:$soak_port/hello" >"$soak_dir/wrk.out" 2>&1 & fi
slowest=0; failed=0; long414=0; redos400=0
for _ in $(seq "$soak"); do
  t=$(curl -s -o /dev/null -w '%{http_code} %{time_total}' --max-time 3 "http://127.0.0.1:$soak_port/users/ada")
  [[ ${t%% *} == 200 ]] || failed=$((failed + 1))
  slowest=$(python3 -c "print(max($slowest, ${t##* }))")
  code=$(python3 $hostile raw "$soak_port" "GET /$(head -c 60000 /dev/zero | tr '\0' x) HTTP/1.1\\r\\nHost: x\\r\\n\\r\\n" 2>/dev/null)
  [[ $code == "HTTP/1.1 414"* ]] && long414=$((long414 + 1))
  redos=$(curl -s -o /dev/null -w '%{http_code}' --max-time 3 -X POST -H 'Content-Type: application/json' \
    --data "$redos_body" "http://127.0.0.1:$soak_port/names")
  [[ $redos == 400 ]] && redos400=$((redos400 + 1))
  now=$(rss "$soak_pid"); ((now > rss_peak)) && rss_peak=$now
  sleep 1
done
wait "$idle_pid" "$held_pid" "$pipe_pid" 2>/dev/null
rss_end=$(rss "$soak_pid")
alive=$(kill -0 "$soak_pid" 2>/dev/null && echo yes || echo no)
zero=$(grep -c "reloaded, 0 routes" "$soak_dir/mock.err")
wrk_rps=$(awk '/Requests\/sec/ { print $2 }' "$soak_dir/wrk.out" 2>/dev/null)
pipelined=$(grep -c "closed yes" "$soak_dir/pipe.out")
verdict=()
((failed > 0)) && verdict+=("$failed normal requests unanswered in 3 s")
((redos400 < soak)) && verdict+=("$((soak - redos400)) ReDoS bodies not refused in 3 s")
[[ $alive == yes ]] || verdict+=("the mock died")
((zero > 0)) && verdict+=("reloaded to 0 routes")
((rss_peak - rss_start > 65536)) && verdict+=("RSS grew by $(((rss_peak - rss_start) / 1024)) MiB")
soak_verdict=$([[ ${#verdict[@]} == 0 ]] && echo ok || echo "FAIL: $(IFS=';'; echo "${verdict[*]}")")
row "mock --validate soak ${soak} s: wrk + 2,000 idle + 60 KB paths + non-reading pipelining + ReDoS bodies" "${wrk_rps:-n/a} req/s" \
  "$((rss_start / 1024)) -> peak $((rss_peak / 1024)) -> $((rss_end / 1024)) MiB" \
  "normal request: $failed of $soak failed, slowest ${slowest} s (goal < 3 s); 414s $long414/$soak; alive $alive; 0-route reloads $zero; idle: $(cat "$soak_dir/idle.out"); 100 pipelined 1 MB GETs unread: $(cat "$soak_dir/held.out"); endless pipeliners closed: $pipelined; ReDoS 400s within 3 s $redos400/$soak; $soak_verdict"
kill "$soak_pid" 2>/dev/null
rm -rf "$soak_dir"
if [[ -n ${soak_alone:-} ]]; then [[ $soak_verdict == ok ]]; exit; fi
