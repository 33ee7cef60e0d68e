#!/usr/bin/env python3
"""A tiny flaky HTTP server for apicli's retry tests. Loopback only, bounded lifetime.

    Tests/Servers/flaky-server.py [--lifetime SECONDS]   # prints its URL (http://127.0.0.1:PORT), then serves

GET /flaky/N/anything            the first N calls to this exact path answer 503, later ones 200
GET /flaky/N/anything?after=S    the 503s carry Retry-After: S (seconds)
GET /drop/N/anything             the first N calls close the connection without answering
Every 200 is JSON: {"path": ..., "calls": k}. The server exits after --lifetime seconds (default 60).
"""
import json
import threading
from urllib.parse import urlsplit, parse_qs

from serve import QuietHandler, serve

calls = {}
lock = threading.Lock()


class Handler(QuietHandler):
    protocol_version = "HTTP/1.1"

    def do_GET(self):
        url = urlsplit(self.path)
        parts = url.path.strip("/").split("/")
        with lock:
            calls[url.path] = calls.get(url.path, 0) + 1
            k = calls[url.path]
        failing = len(parts) >= 2 and parts[0] in ("flaky", "drop") and parts[1].isdigit() and k <= int(parts[1])
        if failing and parts[0] == "drop":
            self.close_connection = True
            self.connection.close()
            return
        if failing:
            body = b"try again\n"
            self.send_response(503)
            after = parse_qs(url.query).get("after")
            if after:
                self.send_header("Retry-After", after[0])
            self.send_header("Content-Type", "text/plain")
        else:
            body = json.dumps({"path": url.path, "calls": k}).encode()
            self.send_response(200)
            self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)


if __name__ == "__main__":
    serve(Handler, lifetime=60, backlog=256)
