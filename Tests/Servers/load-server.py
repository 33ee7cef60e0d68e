#!/usr/bin/env python3
"""A server for apicli load's tests and bench: fixed delays, statuses, a login per user, and counts.
Loopback only, bounded lifetime.

    python3 Tests/Servers/load-server.py [--lifetime SECONDS] [--delay-ms MS]   # prints its URL, then serves

    GET  /fast           200 {"ok": true}
    GET  /delay          200 after --delay-ms (default 20) milliseconds; /delay?ms=N after N ms
    GET  /status/NNN     that status
    POST /login          {"token": "tok-N"} (N counts logins; every token issued stays valid)
    GET  /me             200 {"user": T} when X-Token is a token issued here, else 401
    GET  /stats          {"requests": N, "logins": N, "me_by_token": {token: N}, "paths": {path: N}}
    GET  /big?mb=N       N MiB of 'x' (Content-Length)
    GET  /endless        a chunked body of 'x' that never ends (until the client goes)
    GET  /silent         accepts the request and never answers (until the client goes, or 60 s)
    POST /reset          forgets the counts
"""
import threading
import time
from urllib.parse import urlparse, parse_qs

from serve import QuietHandler, serve

lock = threading.Lock()
state = {"requests": 0, "logins": 0, "tokens": set(), "me_by_token": {}, "paths": {}}


class Handler(QuietHandler):
    protocol_version = "HTTP/1.1"

    def count(self, path):
        with lock:
            if path not in ("/stats", "/reset"):
                state["requests"] += 1
                state["paths"][path] = state["paths"].get(path, 0) + 1

    def do_GET(self):
        url = urlparse(self.path)
        self.count(url.path)
        if url.path == "/fast":
            return self.send_json(200, {"ok": True})
        if url.path == "/delay":
            ms = float(parse_qs(url.query).get("ms", [self.server.args.delay_ms])[0])
            time.sleep(max(ms, 0) / 1000)
            return self.send_json(200, {"slept_ms": ms})
        if url.path.startswith("/status/"):
            return self.send_json(int(url.path.rsplit("/", 1)[1]), {"status": url.path})
        if url.path in ("/big", "/endless"):
            size = int(float(parse_qs(url.query).get("mb", ["1"])[0]) * (1 << 20)) if url.path == "/big" else None
            self.send_response(200)
            self.send_header("Content-Type", "application/octet-stream")
            self.send_header("Content-Length" if size is not None else "Transfer-Encoding", str(size) if size is not None else "chunked")
            self.end_headers()
            chunk = b"x" * (1 << 16)
            framed = b"%x\r\n%s\r\n" % (len(chunk), chunk)
            try:
                if size is not None:
                    while size > 0:
                        self.wfile.write(chunk[:size])
                        size -= len(chunk)
                else:
                    while True:
                        self.wfile.write(framed)
            except OSError:
                self.close_connection = True
            return
        if url.path == "/silent":
            self.connection.settimeout(60)
            try:
                self.connection.recv(1)  # ends when the client closes (or 60 s)
            except OSError:
                pass
            self.close_connection = True
            return
        if url.path == "/redirect":  # 302 to ?to= (the load guard's redirect refusal)
            self.send_response(302)
            self.send_header("Location", parse_qs(url.query)["to"][0])
            self.send_header("Content-Length", "0")
            self.end_headers()
            return
        if url.path == "/me":
            token = self.headers.get("X-Token")
            with lock:
                ok = token in state["tokens"]
                if ok:
                    state["me_by_token"][token] = state["me_by_token"].get(token, 0) + 1
            return self.send_json(200 if ok else 401, {"user": token} if ok else {"error": "unknown token"})
        if url.path == "/stats":
            with lock:
                body = {k: v for k, v in state.items() if k != "tokens"}
            return self.send_json(200, body)
        self.send_json(404, {"error": "not found"})

    def do_POST(self):
        url = urlparse(self.path)
        self.count(url.path)
        length = int(self.headers.get("Content-Length") or 0)
        if length:
            self.rfile.read(length)
        if url.path == "/login":
            with lock:
                state["logins"] += 1
                token = "tok-%d" % state["logins"]
                state["tokens"].add(token)
            return self.send_json(200, {"token": token})
        if url.path == "/reset":
            with lock:
                state.update({"requests": 0, "logins": 0, "me_by_token": {}, "paths": {}})
            return self.send_json(200, {"ok": True})
        self.send_json(404, {"error": "not found"})


if __name__ == "__main__":
    serve(Handler, lambda p: p.add_argument("--delay-ms", type=float, default=20), lifetime=120, backlog=1024)
