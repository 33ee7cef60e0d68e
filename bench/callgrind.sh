#!/usr/bin/env bash
# Instructions a request (user space, valgrind's callgrind) of `check` (one worker) and of a
# closed-model `load` (one user) against nginx on loopback, for each binary given: the run with 2N
# requests minus the run with N, over N, so start-up and parsing drop out. Unlike wall-clock rows it
# does not move with the machine's load, so a busy machine can still compare two binaries; it does
# not count time in the kernel (syscalls) or waiting.
#
#   bench/callgrind.sh OLD_BINARY NEW_BINARY [...]      # N=200 for check, 800 for load
#
# valgrind 3.19 cannot read these binaries' debug info: each is copied without it (objcopy
# --strip-debug; symbols stay) into bench/out/callgrind/, where the callgrind.out files are kept for
# `callgrind_annotate`.
set -uo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
[[ $# -ge 1 ]] || { sed -n 2,12p "$0"; exit 64; }
out=$PWD/bench/out/callgrind
mkdir -p "$out/ng" "$out/load"
export NO_PROXY="127.0.0.1,localhost" no_proxy="127.0.0.1,localhost" PATH="$PATH:/usr/sbin"
unset APICLI_TARGETS APICLI_ENV
pids=()
trap 'for p in "${pids[@]}"; do kill "$p" 2>/dev/null; done; wait 2>/dev/null' EXIT
. "$(dirname "${BASH_SOURCE[0]}")/nginx-hello.sh"
nginx_hello "$out/ng" 1
url=http://127.0.0.1:$nginx_port
for _ in $(seq 50); do curl -s -o /dev/null "$url/hello" && break; sleep 0.1; done
for n in 200 400; do
  mkdir -p "$out/check$n"
  { echo "baseURL: $url"; echo "validate: success"; echo "targets:"
    for ((i = 0; i < n; i++)); do echo "  t$i: { path: /hello, task: { query: { i: $i } }, expect: { status: 200 } }"; done
  } >"$out/check$n/suite.yaml"
done
printf 'baseURL: %s\nvalidate: success\ntargets:\n  hello: { path: /hello }\n' "$url" >"$out/load/bench.yaml"
count() { grep -o 'Collected : [0-9]*' "$1" | grep -o '[0-9]*$'; }
for bin in "$@"; do
  b=$(basename "$bin") s="$out/$(basename "$bin").nodebug"
  objcopy --strip-debug "$bin" "$s"
  for n in 200 400; do
    valgrind --tool=callgrind --callgrind-out-file="$out/$b.check.$n.out" "$s" check --targets "$out/check$n" --jobs 1 >/dev/null 2>"$out/$b.check.$n.err"
  done
  for n in 800 1600; do
    valgrind --tool=callgrind --callgrind-out-file="$out/$b.load.$n.out" "$s" load --targets "$out/load" -q --users 1 --requests $n >/dev/null 2>"$out/$b.load.$n.err"
  done
  c=$(( ($(count "$out/$b.check.400.err") - $(count "$out/$b.check.200.err")) / 200 ))
  l=$(( ($(count "$out/$b.load.1600.err") - $(count "$out/$b.load.800.err")) / 800 ))
  printf '%-28s check %7d instructions/request   load %7d instructions/request\n' "$b" "$c" "$l"
done
