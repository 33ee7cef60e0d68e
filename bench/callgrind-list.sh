#!/usr/bin/env bash
# Instructions (user space, callgrind) of `list` and `validate` of the bench's 10,000-target file
# (bench/gen-targets.py), beside libyaml alone walking every event of it (bench/libyaml-walk.c): the
# "Big target folders" goal rows of `make bench` counted in instructions, which a busy machine does
# not move. Unlike the wall-clock rows, both threads' work is summed, and time in the kernel (page
# faults, reads) is not counted.
#
#   bench/callgrind-list.sh BINARY [...]          # N=10000 (BENCH_LIST_TARGETS=N for another size)
#
# The callgrind.out files stay in bench/out/callgrind/ for `callgrind_annotate --inclusive=yes`.
set -uo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
[[ $# -ge 1 ]] || { sed -n 2,10p "$0"; exit 64; }
out=$PWD/bench/out/callgrind
n=${BENCH_LIST_TARGETS:-10000}
d=$out/list-$n
mkdir -p "$d"
[[ -f $d/gen.yaml ]] || python3 bench/gen-targets.py "$n" >"$d/gen.yaml"
walk=$PWD/bench/out/libyaml-walk
[[ -x $walk && $walk -nt bench/libyaml-walk.c ]] || cc -O2 -o "$walk" bench/libyaml-walk.c $(pkg-config --cflags --libs yaml-0.1) || exit 1
unset APICLI_TARGETS APICLI_ENV
export APICLI_MAX_TARGET_FILE_SIZE=$((256 << 20))
count() { grep -o 'Collected : [0-9]*' "$1" | grep -o '[0-9]*$'; }
valgrind --tool=callgrind --callgrind-out-file="$out/libyaml-walk.$n.out" "$walk" "$d/gen.yaml" >/dev/null 2>"$out/libyaml-walk.$n.err"
w=$(count "$out/libyaml-walk.$n.err")
printf '%-28s %13d instructions\n' "libyaml-walk" "$w"
for bin in "$@"; do
  b=$(basename "$bin") s="$out/$(basename "$bin").nodebug"
  objcopy --strip-debug "$bin" "$s"
  valgrind --tool=callgrind --callgrind-out-file="$out/$b.list.$n.out" "$s" list --targets "$d" >/dev/null 2>"$out/$b.list.$n.err"
  valgrind --tool=callgrind --callgrind-out-file="$out/$b.validate.$n.out" "$s" validate "$d/gen.yaml" >/dev/null 2>"$out/$b.validate.$n.err"
  l=$(count "$out/$b.list.$n.err") v=$(count "$out/$b.validate.$n.err")
  printf '%-28s list %13d (%s x walk)   validate %13d (%s x walk)\n' "$b" "$l" \
    "$(awk -v a="$l" -v b="$w" 'BEGIN { printf "%.2f", a / b }')" "$v" "$(awk -v a="$v" -v b="$w" 'BEGIN { printf "%.2f", a / b }')"
done
