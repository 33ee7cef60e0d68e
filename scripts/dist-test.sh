#!/usr/bin/env bash
# scripts/dist-test.sh TARBALL DEB VERSION — what `make dist` built, run as a user without Swift
# would: the tarball extracted and the .deb unpacked (dpkg -x) into temporary folders, then in each
# `apicli --version`, `apicli call github.zen --stub` and `apicli mock` (one request by curl), with an
# empty environment (env -i) and PATH=/usr/bin:/bin. Also: the .deb depends on libyaml-0-2 and libpcre2-8-0 only,
# both hold the man pages (apicli.1, apicli-targets.5), the completions and the JSON Schemas
# (usr/share/apicli, what `apicli schema` prints), and the binary links no Swift library and has no run path.
# Run by `make dist-test` (and so by `make test`).
set -euo pipefail

tarball=$1 deb=$2 version=$3
repo=$(cd "$(dirname "$0")/.." && pwd)
work=$(mktemp -d "${TMPDIR:-/tmp}/apicli-dist-test.XXXXXX")
mock_pid=""
cleanup() {
  if [ -n "$mock_pid" ]; then kill "$mock_pid" 2>/dev/null || true; wait "$mock_pid" 2>/dev/null || true; fi
  rm -rf "$work"
}
trap cleanup EXIT
fail() { echo "dist-test: $*" >&2; exit 1; }

# The targets the packaged binary answers from: the shipped ones, copied, so nothing points into the repo.
cp -r "$repo/targets" "$work/targets"

clean_env() { env -i PATH=/usr/bin:/bin HOME="$work" "$@"; }
clean_env sh -c 'command -v swift' >/dev/null 2>&1 && fail "swift is on PATH=/usr/bin:/bin: this test cannot show the binary runs without it"

depends=$(dpkg-deb -f "$deb" Depends)
[ "$depends" = "libyaml-0-2, libpcre2-8-0" ] || fail "$deb: Depends is '$depends', expected 'libyaml-0-2, libpcre2-8-0'"
[ "$(dpkg-deb -f "$deb" Version)" = "$version" ] || fail "$deb: Version is not $version"

mkdir -p "$work/tar" "$work/deb"
tar -C "$work/tar" -xzf "$tarball"
dpkg -x "$deb" "$work/deb"

check_root() {
  local root=$1 name=$2 bin=$1/usr/bin/apicli
  [ -x "$bin" ] || fail "$name: no usr/bin/apicli"
  for f in usr/share/bash-completion/completions/apicli usr/share/zsh/site-functions/_apicli \
           usr/share/fish/vendor_completions.d/apicli.fish; do
    [ -s "$root/$f" ] || fail "$name: no $f"
  done
  ls "$root"/usr/share/man/man1/apicli.1* >/dev/null 2>&1 || fail "$name: no man page"
  ls "$root"/usr/share/man/man5/apicli-targets.5* >/dev/null 2>&1 || fail "$name: no apicli-targets(5)"
  for f in apicli-targets apicli-project; do
    cmp -s "$root/usr/share/apicli/$f.schema.json" <(clean_env "$bin" schema "${f#apicli-}") \
      || fail "$name: usr/share/apicli/$f.schema.json is missing or not what apicli schema prints"
  done
  if ldd "$bin" | grep -i swift >/dev/null; then fail "$name: the binary links a Swift library: $(ldd "$bin" | grep -i swift)"; fi
  if readelf -S "$bin" | grep '\.symtab' >/dev/null; then fail "$name: the binary is not stripped"; fi
  # No run path (RELEASE_FLAGS' --disable-local-rpath): the loader looks for the system's libraries
  # only where the system keeps them, not beside wherever the binary was copied.
  if readelf -d "$bin" | grep -E 'RPATH|RUNPATH' >/dev/null; then fail "$name: the binary has a run path: $(readelf -d "$bin" | grep -E 'RPATH|RUNPATH')"; fi

  local out
  out=$(clean_env "$bin" --version) || fail "$name: apicli --version failed"
  [ "$out" = "$version" ] || fail "$name: apicli --version printed '$out', expected '$version'"

  out=$(cd "$work" && clean_env "$bin" call github.zen --stub --targets "$work/targets") \
    || fail "$name: apicli call github.zen --stub failed"
  [ "$out" = "Design for failure." ] || fail "$name: call --stub printed '$out'"

  local fifo=$work/mock-$name.out
  (cd "$work" && exec env -i PATH=/usr/bin:/bin HOME="$work" "$bin" mock github --port 0 --quiet \
     --targets "$work/targets" > "$fifo" 2> "$work/mock-$name.err") &
  mock_pid=$!
  local url="" i
  for i in $(seq 1 100); do
    url=$(head -n 1 "$fifo" 2>/dev/null || true)
    [[ "$url" == http://127.0.0.1:* ]] && break
    kill -0 "$mock_pid" 2>/dev/null || fail "$name: apicli mock exited: $(cat "$work/mock-$name.err")"
    sleep 0.1
  done
  [[ "$url" == http://127.0.0.1:* ]] || fail "$name: apicli mock printed no URL"
  out=$(curl -sS --noproxy '*' --max-time 10 "$url/zen") || fail "$name: curl $url/zen failed"
  [ "$out" = "Design for failure." ] || fail "$name: mock answered '$out'"
  kill "$mock_pid"
  wait "$mock_pid" 2>/dev/null || true
  mock_pid=""
  echo "dist-test: $name: --version, call --stub and mock work with env -i PATH=/usr/bin:/bin"
}

check_root "$work/tar" tarball
check_root "$work/deb" deb
