# Sourced by bench/run.sh (section 8): `apicli mock` soaked by hostile clients on loopback.
# For SOAK_SECONDS (30): wrk at full load, ~2,000 idle connections held open
# (Tests/Servers/hostile-client.py idle), a 60 KB path and a ReDoS body (`--validate` against a
# `pattern: ^(a+)+$`, answered 400 at the regex work limit) every second; meanwhile a normal request every
# second must be answered within 3 s, the mock must never reload to 0 routes, and its RSS must stay
# flat. Standalone: bin=PATH/TO/apicli bash -c 'source bench/mock-soak.sh' (needs row(), free_port()).
echo "== 8. mock soak"
soak=${SOAK_SECONDS:-30}
soak_dir=$(mktemp -d)
mkdir -p "$soak_dir/targets"
cat >"$soak_dir/targets/api.yaml" <<'YAML'
baseURL: http://127.0.0.1:9
targets:
  hello: { path: /hello, sample: { status: 200, json: { hello: world } } }
  user: { path: "/users/{name}", sample: { status: 200, json: { name: "{name}" } } }
  name:
    method: POST
    path: /names
    expect: { schema: { openapi: redos.json, operation: createName } }
    sample: { status: 201, json: {} }
YAML
cat >"$soak_dir/targets/redos.json" <<'JSON'
{"openapi": "3.0.3", "info": {"title": "redos", "version": "1"}, "paths": {"/names": {"post": {"operationId": "createName",
 "requestBody": {"content": {"application/json": {"schema": {"type": "object", "properties": {"name": {"type": "string", "pattern": "^(a+)+$"}}}}}},
 "responses": {"201": {"description": "made"}}}}}}
JSON
redos_body="{\"name\":\"$(head -c 40 /dev/zero | tr '\0' a)!\"}"
soak_port=$(free_port)
soak_bin="$(cd "$(dirname "$bin")" && pwd)/$(basename "$bin")"
(cd "$soak_dir" && exec "$soak_bin" mock --port "$soak_port" --validate -q) 2>"$soak_dir/mock.err" &
soak_pid=$!
pids+=("$soak_pid")
for _ in $(seq 50); do curl -s -o /dev/null "http://127.0.0.1:$soak_port/hello" && break; sleep 0.1; done
rss() { awk '/VmRSS/ { print $2 }' "/proc/$1/status" 2>/dev/null || echo 0; }
rss_start=$(rss "$soak_pid")
python3 Tests/Servers/hostile-client.py idle "$soak_port" 2000 "$soak" >"$soak_dir/idle.out" 2>&1 &
idle_pid=$!
if have wrk; then wrk -t2 -c32 -d"${soak}s" "http://127.0.0.1:$soak_port/hello" >"$soak_dir/wrk.out" 2>&1 & fi
slowest=0; failed=0; long414=0; redos400=0
for _ in $(seq "$soak"); do
  t=$(curl -s -o /dev/null -w '%{http_code} %{time_total}' --max-time 3 "http://127.0.0.1:$soak_port/users/ada")
  [[ ${t%% *} == 200 ]] || failed=$((failed + 1))
  slowest=$(python3 -c "print(max($slowest, ${t##* }))")
  code=$(python3 Tests/Servers/hostile-client.py raw "$soak_port" "GET /$(head -c 60000 /dev/zero | tr '\0' x) HTTP/1.1\\r\\nHost: x\\r\\n\\r\\n")
  [[ $code == "HTTP/1.1 414"* ]] && long414=$((long414 + 1))
  redos=$(curl -s -o /dev/null -w '%{http_code}' --max-time 3 -X POST -H 'Content-Type: application/json' \
    --data "$redos_body" "http://127.0.0.1:$soak_port/names")
  [[ $redos == 400 ]] && redos400=$((redos400 + 1))
  sleep 1
done
wait "$idle_pid" 2>/dev/null
rss_end=$(rss "$soak_pid")
alive=$(kill -0 "$soak_pid" 2>/dev/null && echo yes || echo no)
zero=$(grep -c "reloaded, 0 routes" "$soak_dir/mock.err")
wrk_rps=$(awk '/Requests\/sec/ { print $2 }' "$soak_dir/wrk.out" 2>/dev/null)
row "mock soak ${soak} s: wrk + 2,000 idle + 60 KB paths + ReDoS bodies" "${wrk_rps:-n/a} req/s" "$((rss_start / 1024)) -> $((rss_end / 1024)) MiB" \
  "normal request: $failed of $soak failed, slowest ${slowest} s (goal < 3 s); 414s $long414/$soak; ReDoS 400s within 3 s $redos400/$soak; alive $alive; 0-route reloads $zero; $(cat "$soak_dir/idle.out")"
kill "$soak_pid" 2>/dev/null
rm -rf "$soak_dir"
