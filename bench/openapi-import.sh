#!/usr/bin/env bash
# Issue 36's goal: importing a 465-operation, 2.7 MB description takes <= 1 s.
# Sourced by bench/run.sh (section 9) or run alone:
#
#   bench/openapi-import.sh [SPEC]    # default: bench/fixtures/pagerduty/openapiv3.json; release build
#
# Imports SPEC with the release binary (`import openapi -o FILE --force`), median wall time of
# 5 runs (hyperfine when present, else /usr/bin/time), and prints it against the 1 s goal.
if [[ -z ${BASH_SOURCE[1]:-} ]]; then
  set -uo pipefail
  cd "$(dirname "${BASH_SOURCE[0]}")/.."
  out=$PWD/bench/out
  mkdir -p "$out"
  bin=.build/release/apicli
  RELEASE_FLAGS=$(sed -n 's/^RELEASE_FLAGS := //p' Makefile)  # as `make release` builds
  [[ -x $bin ]] || swift build -c release $RELEASE_FLAGS --product apicli >&2 || exit 1
  have() { command -v "$1" >/dev/null 2>&1; }
  row() { printf '%-58s %14s %12s  %s\n' "$1" "$2" "$3" "$4"; }
fi
spec=${1:-bench/fixtures/pagerduty/openapiv3.json}
[[ ${BASH_SOURCE[1]:-} ]] && spec=bench/fixtures/pagerduty/openapiv3.json
echo "== 9. import openapi: $(basename "$(dirname "$spec")")/$(basename "$spec")"
io=$out/import-openapi
mkdir -p "$io"
ops=$(python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
print(sum(1 for v in d.get("paths", {}).values() for m in v if m in ("get","put","post","delete","patch","head","options","trace")))' "$spec" 2>/dev/null || echo "?")
mb=$(python3 -c "import os; print('%.2f' % (os.path.getsize('$spec') / 1e6))")
walls=()
for i in 1 2 3 4 5; do
  /usr/bin/time -f '%e %M' -o "$io/time.txt" "$bin" import openapi "$spec" -o "$io/out.yaml" --force >/dev/null 2>"$io/stderr.txt"
  rc=$?
  read -r s kib <<<"$(tail -n 1 "$io/time.txt")"
  walls+=("$s")
done
med=$(printf '%s\n' "${walls[@]}" | sort -n | sed -n 3p)
met=$(python3 -c "print('met' if float('$med') <= 1.0 else 'NOT met')")
row "apicli import openapi, $ops operations, $mb MB (median of 5)" "$med s" "$((kib / 1024)) MiB" "exit $rc; goal <= 1 s: $met"
