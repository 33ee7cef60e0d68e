#!/usr/bin/env python3
"""A Server-Sent Events server that misbehaves on purpose, for apicli's stream tests. Loopback
only, bounded lifetime.

    Tests/Servers/sse-server.py [--lifetime SECONDS] [--gap MS]   # prints its URL, then serves

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
GET /resume   text/event-stream, chunked (HTTP/1.1). Without Last-Event-ID: `retry: 200`, events
              id 1 and id 2, then the connection is dropped (no last chunk). With Last-Event-ID: N:
              the events after N up to id 4 (the last one `event: end`), then the stream ends.
              Each request's Last-Event-ID (or "-") is appended to GET /log.
GET /silent   text/event-stream: one event, then silence for --gap ms, then one more.
GET /log      the Last-Event-ID of each /resume request so far, one a line.
GET /endless  text/event-stream that never ends: `id: N`, `data: tick N` every 50 ms, until the
              client goes (or the server's lifetime ends).
GET /endless-line  text/event-stream: `data: ` and then 64 KiB writes of `x` that never end the
              line, for at most 30 s or until the client goes.
GET /endless-event  text/event-stream: `data: xxx…` lines of 1 KiB that never end the event (no
              blank line), for at most 30 s or until the client goes.
GET /drop     text/event-stream, chunked: one event (`id: N`, no `retry:`), then the connection is
              dropped (no last chunk), every time: a stream that reconnects forever.
GET /long/N   text/event-stream: one event whose one `data:` line holds N bytes of `x`, then the end.
"""
import time

from serve import QuietHandler, serve

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


class Handler(QuietHandler):
    protocol_version = "HTTP/1.0"

    @property
    def gap(self):
        return self.server.args.gap / 1000

    def do_GET(self):
        if self.path == "/resume":
            return self.resume()
        if self.path == "/drop":
            return self.drop()
        if self.path == "/log":
            return self.plain("".join(line + "\n" for line in RESUMES).encode())
        if self.path == "/silent":
            self.send_response(200)
            self.send_header("Content-Type", "text/event-stream")
            self.end_headers()
            try:
                self.wfile.write(b"data: first\n\n")
                self.wfile.flush()
                time.sleep(self.gap)
                self.wfile.write(b"data: late\n\n")
                self.wfile.flush()
            except (BrokenPipeError, ConnectionResetError):
                pass
            return
        if self.path == "/plain":
            return self.plain(b"not a stream\n")
        if self.path == "/endless":
            return self.endless()
        if self.path in ("/endless-line", "/endless-event"):
            return self.flood(b"data: ", b"x" * 65536 if self.path == "/endless-line" else b"data: " + b"x" * 1017 + b"\n")
        if self.path.startswith("/long/"):
            size = int(self.path[len("/long/"):])
            return self.flood(b"data: " + b"x" * size + b"\n\n", b"", seconds=0)
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

    def endless(self):
        self.send_response(200)
        self.send_header("Content-Type", "text/event-stream")
        self.end_headers()
        n = 0
        try:
            while True:
                n += 1
                self.wfile.write(b"id: %d\ndata: tick %d\n\n" % (n, n))
                self.wfile.flush()
                time.sleep(0.05)
        except (BrokenPipeError, ConnectionResetError, OSError):
            pass

    def flood(self, first, repeated, seconds=30):
        """An event stream (the connection's close ends it): `first`, then `repeated` for `seconds`."""
        self.send_response(200)
        self.send_header("Content-Type", "text/event-stream")
        self.end_headers()
        end = time.time() + seconds
        try:
            self.wfile.write(first)
            while time.time() < end:
                self.wfile.write(repeated)
            self.wfile.flush()
        except (BrokenPipeError, ConnectionResetError, OSError):
            pass

    def plain(self, body):
        self.send_body(200, "text/plain", body)

    def drop(self):
        self.protocol_version = "HTTP/1.1"
        self.send_response(200)
        self.send_header("Content-Type", "text/event-stream")
        self.send_header("Transfer-Encoding", "chunked")
        self.end_headers()
        DROPS.append(1)
        event = b"id: %d\ndata: dropped\n\n" % len(DROPS)
        try:
            self.wfile.write(b"%x\r\n%s\r\n" % (len(event), event))
            self.wfile.flush()
            time.sleep(0.05)
            self.close_connection = True
            self.connection.shutdown(2)
        except OSError:
            pass

    def resume(self):
        last = self.headers.get("Last-Event-ID")
        RESUMES.append(last if last is not None else "-")
        self.protocol_version = "HTTP/1.1"
        self.send_response(200)
        self.send_header("Content-Type", "text/event-stream")
        self.send_header("Transfer-Encoding", "chunked")
        self.end_headers()

        def chunk(data):
            self.wfile.write(b"%x\r\n%s\r\n" % (len(data), data))
            self.wfile.flush()
            time.sleep(0.05)

        try:
            if last is None:
                chunk(b"retry: 200\n\n")
                chunk(b"id: 1\ndata: one\n\n")
                chunk(b"id: 2\ndata: two\n\n")
                self.close_connection = True
                self.connection.shutdown(2)  # dropped: no last chunk
                return
            start = int(last) if last.isdigit() else 0
            for n in range(start + 1, 5):
                kind = b"event: end\n" if n == 4 else b""
                chunk(b"id: %d\n%sdata: n%d\n\n" % (n, kind, n))
            self.wfile.write(b"0\r\n\r\n")
            self.wfile.flush()
            self.close_connection = True
        except (BrokenPipeError, ConnectionResetError, OSError):
            pass


RESUMES = []
DROPS = []


if __name__ == "__main__":
    serve(Handler, lambda p: p.add_argument("--gap", type=int, default=1500, help="the pause, in ms"), lifetime=60)
