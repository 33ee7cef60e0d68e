#!/usr/bin/env bash
# Start or stop a local httpbin (gunicorn + the `httpbin` PyPI package from .venv)
# bound to 127.0.0.1 on a free port. Used by `make test` and by humans:
#
#   scripts/httpbin.sh start    # prints http://127.0.0.1:PORT (also in $RUN_DIR/httpbin.url)
#   scripts/httpbin.sh stop     # no error when it is not running
#   scripts/httpbin.sh status   # prints the URL and exits 0 if running, else exits 1
#
# Environment:
#   APICLI_RUN_DIR        where pid/url/log files go (default .run, relative to the repo root)
#   APICLI_VENV           the virtualenv holding gunicorn + httpbin (default .venv)
#   HTTPBIN_WAIT_SECONDS  how long `start` waits for /get to answer (default 15)
#
# Only stdout of `start`/`status` is the URL; everything else goes to stderr.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"

abs() { case "$1" in /*) printf '%s\n' "$1" ;; *) printf '%s\n' "$ROOT/$1" ;; esac; }

RUN_DIR="$(abs "${APICLI_RUN_DIR:-.run}")"
VENV="$(abs "${APICLI_VENV:-.venv}")"
WAIT_SECONDS="${HTTPBIN_WAIT_SECONDS:-15}"
PID_FILE="$RUN_DIR/httpbin.pid"
URL_FILE="$RUN_DIR/httpbin.url"
LOG_FILE="$RUN_DIR/httpbin.log"
ACCESS_LOG="$RUN_DIR/httpbin.access.log"

log() { printf 'httpbin.sh: %s\n' "$*" >&2; }
die() { log "$*"; exit 1; }

# Print the pid from the pid file if it names a live gunicorn; fail otherwise.
running_pid() {
  [[ -s $PID_FILE ]] || return 1
  local pid
  pid="$(tr -dc '0-9' <"$PID_FILE")"
  [[ -n $pid ]] || return 1
  kill -0 "$pid" 2>/dev/null || return 1
  # Guard against a recycled pid that belongs to something else.
  # No `| grep -q` under pipefail: grep exiting early can fail the pipeline with SIGPIPE.
  if [[ -r /proc/$pid/cmdline && $(tr '\0' ' ' <"/proc/$pid/cmdline") != *gunicorn* ]]; then
    return 1
  fi
  printf '%s\n' "$pid"
}

# Does the server at $1 answer GET /get with a 2xx?
probe() {
  curl -fsS --noproxy '*' --max-time 2 -o /dev/null "$1/get" 2>/dev/null
}

free_port() {
  "$VENV/bin/python" -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1]); s.close()'
}

show_log() {
  if [[ -s $LOG_FILE ]]; then
    log "---- last lines of $LOG_FILE ----"
    tail -n 120 "$LOG_FILE" >&2
    log "----"
  else
    log "(no log at $LOG_FILE)"
  fi
}

# Stop whatever the pid file names; wait for it to go away.
stop_pid() {
  local pid="$1" i
  kill -TERM "$pid" 2>/dev/null || return 0
  for ((i = 0; i < 100; i++)); do          # up to 10 s (graceful timeout is 3 s)
    kill -0 "$pid" 2>/dev/null || return 0
    sleep 0.1
  done
  log "pid $pid ignored SIGTERM; sending SIGKILL"
  kill -KILL "$pid" 2>/dev/null || true
  # Its workers notice the parent is gone and exit on their own.
}

cmd_stop() {
  local pid
  if pid="$(running_pid)"; then
    stop_pid "$pid"
    log "stopped (pid $pid)"
  fi
  rm -f "$PID_FILE" "$URL_FILE"
}

cmd_status() {
  local pid
  if pid="$(running_pid)" && [[ -s $URL_FILE ]] && probe "$(<"$URL_FILE")"; then
    cat "$URL_FILE"
    return 0
  fi
  log "not running"
  return 1
}

# Lines the log gained since byte offset $1 (so one attempt never reads another's).
log_since() {
  tail -c "+$(($1 + 1))" "$LOG_FILE" 2>/dev/null || true
}

# Try once on port $1; 0 = up, 1 = failed, 2 = port was taken (retry on another).
try_start() {
  local port="$1" url="http://127.0.0.1:$1" deadline offset pid="" new
  rm -f "$PID_FILE"
  offset="$(stat -c %s "$LOG_FILE" 2>/dev/null || echo 0)"
  # --header-map dangerous: keep request headers whose names contain "_"
  #   (gunicorn >= 22 drops them by default); they reach httpbin as APP_NAME -> App-Name.
  # --no-control-socket: gunicorn 27 otherwise opens one shared control socket in
  #   $XDG_RUNTIME_DIR or ~/.gunicorn/, which a second instance would fight over.
  # --daemon sends stdout to /dev/null, so the access log goes to a file, not "-".
  # shellcheck disable=SC2094  # gunicorn appends to the log it is also told to write
  "$VENV/bin/gunicorn" \
    --bind "127.0.0.1:$port" \
    --workers 4 --threads 4 \
    --header-map dangerous \
    --graceful-timeout 3 \
    --no-control-socket \
    --daemon --pid "$PID_FILE" \
    --access-logfile "$ACCESS_LOG" \
    --error-logfile "$LOG_FILE" \
    httpbin:app >>"$LOG_FILE" 2>&1 || return 1

  local seen="" rc=1
  deadline=$((SECONDS + WAIT_SECONDS))
  while ((SECONDS < deadline)); do
    if probe "$url"; then
      printf '%s\n' "$url" >"$URL_FILE"
      return 0
    fi
    if pid="$(running_pid)"; then
      seen="$pid"
    elif [[ -n $seen ]]; then
      break                                   # it was up, and died
    fi
    new="$(log_since "$offset")"
    if grep -q 'Connection in use' <<<"$new"; then
      rc=2; break                             # someone took the port in between
    fi
    if grep -qE "Can't connect|Worker failed to boot|Shutting down: Master" <<<"$new"; then
      break
    fi
    sleep 0.25
  done
  # Failed: leave nothing behind. The pid file is written before the bind, so a
  # master stuck retrying the bind is found here; it defers SIGTERM while it
  # retries, and has no workers yet, so SIGKILL it at once.
  if pid="$(running_pid)" || { [[ -n $seen ]] && kill -0 "$seen" 2>/dev/null && pid="$seen"; }; then
    if ((rc == 2)); then kill -KILL "$pid" 2>/dev/null || true; else stop_pid "$pid"; fi
  fi
  rm -f "$PID_FILE"
  return "$rc"
}

cmd_start() {
  local pid port rc
  mkdir -p "$RUN_DIR"
  if pid="$(running_pid)"; then
    if [[ -s $URL_FILE ]] && probe "$(<"$URL_FILE")"; then
      log "already running (pid $pid)"
      cat "$URL_FILE"
      return 0
    fi
    log "pid $pid is not answering; restarting"
    stop_pid "$pid"
  fi
  rm -f "$PID_FILE" "$URL_FILE"

  [[ -x $VENV/bin/gunicorn ]] || die "$VENV/bin/gunicorn not found: run 'make venv' first"
  command -v curl >/dev/null 2>&1 || die "curl not found: run 'make deps' first"

  : >"$LOG_FILE"
  for _ in 1 2 3; do
    port="$(free_port)" || die "could not pick a free port"
    rc=0
    try_start "$port" || rc=$?
    case $rc in
      0) log "up on 127.0.0.1:$port (pid $(running_pid || echo '?'))"
         cat "$URL_FILE"
         return 0 ;;
      2) log "port $port was taken; trying another" ;;
      *) break ;;
    esac
  done
  log "failed to start httpbin"
  show_log
  exit 1
}

case "${1:-}" in
  start)  cmd_start ;;
  stop)   cmd_stop ;;
  status) cmd_status ;;
  *) echo "usage: $0 start|stop|status" >&2; exit 2 ;;
esac
