#!/usr/bin/env python3
"""A Server-Sent Events server that misbehaves on purpose, for apicli's stream tests. Loopback
only, bounded lifetime.

    scripts/sse-server.py [--lifetime SECONDS] [--gap MS]   # prints its URL, then serves

GET /events   text/event-stream, no Content-Length (the connection close ends it). The body starts
              with a UTF-8 BOM and splits lines across writes; it has a comment, `retry: 1500`, `id:`,
              multi-line `data:`, CR-only and CRLF line ends (one CRLF split between writes), a field
              without a colon, two spaces after a colon, a pause of --gap ms (default 1500) before the
              last event, and an unfinished event at the end (which must not be dispatched).
              Events a correct parser yields (type, data, last event id):
                greeting  "hello\\nworld"     "1"
                message   "cr only"           "1"
                message   "crlf"              "2"
                message   ""                  "2"
                message   " two spaces"       "2"
                end       "{\\"n\\": 6}"        "3"
GET /plain    text/plain "not a stream\\n"
"""
import argparse
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

PARTS = [
    b"\xef\xbb\xbf: a comment, then retry\n",
    b"retry: 1500\n",
    b"id: 1\nevent: gre",
    b"eting\ndata: hel",
    b"lo\ndata: world\n",
    b"\n",
    b"data: cr only\r",
    b"\r",
    b"id: 2\r\ndata: crlf\r",
    b"\n\r\n",
    b"data\n\n",
    b"data:  two spaces\n\n",
    "GAP",
    b"id: 3\nevent: end\ndata: {\"n\": 6}\n\n",
    b"data: never dispatched\n",
]


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.0"
    disable_nagle_algorithm = True
    gap = 1.5

    def log_message(self, *args):
        pass

    def do_GET(self):
        if self.path == "/plain":
            body = b"not a stream\n"
            self.send_response(200)
            self.send_header("Content-Type", "text/plain")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)
            return
        if self.path != "/events":
            self.send_error(404)
            return
        self.send_response(200)
        self.send_header("Content-Type", "text/event-stream")
        self.send_header("Cache-Control", "no-cache")
        self.end_headers()
        self.wfile.flush()
        try:
            for part in PARTS:
                if part == "GAP":
                    time.sleep(self.gap)
                    continue
                self.wfile.write(part)
                self.wfile.flush()
                time.sleep(0.02)
        except (BrokenPipeError, ConnectionResetError):
            pass


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--lifetime", type=float, default=60)
    parser.add_argument("--gap", type=int, default=1500)
    args = parser.parse_args()
    Handler.gap = args.gap / 1000
    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    server.daemon_threads = True
    print(f"http://127.0.0.1:{server.server_address[1]}", flush=True)
    threading.Timer(args.lifetime, server.shutdown).start()
    server.serve_forever()


if __name__ == "__main__":
    main()
