#!/usr/bin/env python3
"""A loopback HTTP server for apicli's transfer tests (large bodies, uploads, interrupted downloads).

    Tests/Servers/transfer-server.py [--root DIR] [--lifetime SECONDS]   # prints http://127.0.0.1:PORT, then serves

GET  /files/NAME             the file DIR/NAME, streamed (Content-Length, application/octet-stream)
GET  /slow/N?seconds=S       N bytes of 'x' spread evenly over S seconds (default 3), with Content-Length
GET  /cut/N                  announces N bytes, sends half of them, then closes the connection
GET  /named/NAME?as=FILE     a few bytes with Content-Disposition: attachment; filename="FILE"
POST or PUT /sink            reads the whole body (Content-Length or chunked) and throws it away; answers
                             JSON {"bytes": n, "sha256": hex, "contentType": ..., "chunked": bool};
                             ?seconds=S spreads the reading of a Content-Length body over about S seconds;
                             ?close=1 answers with Connection: close and closes at once, as gunicorn's
                             sync worker does (the answer and the close arrive together);
                             ?early=1 answers right after the head, before reading the body (the
                             answer says "bytes": -1), shuts its side, then reads the body and closes
The server exits after --lifetime seconds (default 120). Nothing is kept in memory beyond one chunk.
"""
import hashlib
import os
import socket
import time
from urllib.parse import parse_qs, unquote, urlsplit

from serve import QuietHandler, serve

CHUNK = 1 << 16


class Handler(QuietHandler):
    protocol_version = "HTTP/1.1"

    def discard(self, length, digest, pause=0):
        """Reads `length` body bytes a chunk at a time into `digest`; returns how many came."""
        left = length
        while left:
            block = self.rfile.read(min(CHUNK, left))
            if not block:
                break
            digest.update(block)
            left -= len(block)
            if pause:
                time.sleep(pause)
        return length - left

    def head(self, length):
        """The head of a streamed application/octet-stream body of `length` bytes."""
        self.send_response(200)
        self.send_header("Content-Type", "application/octet-stream")
        self.send_header("Content-Length", str(length))
        self.end_headers()

    def do_GET(self):
        url = urlsplit(self.path)
        query = parse_qs(url.query)
        parts = url.path.strip("/").split("/", 1)
        kind, arg = parts[0], unquote(parts[1]) if len(parts) > 1 else ""
        if kind == "files":
            path = os.path.join(self.server.args.root, os.path.basename(arg))
            if not os.path.isfile(path):
                return self.text(404, "no such file\n")
            size = os.path.getsize(path)
            self.head(size)
            with open(path, "rb") as f:
                while True:
                    block = f.read(CHUNK)
                    if not block:
                        break
                    self.wfile.write(block)
        elif kind == "slow" and arg.isdigit():
            n = int(arg)
            seconds = float(query.get("seconds", ["3"])[0])
            self.head(n)
            steps = 50
            sent = 0
            for i in range(steps):
                size = n * (i + 1) // steps - sent
                self.wfile.write(b"x" * size)
                self.wfile.flush()
                sent += size
                time.sleep(seconds / steps)
        elif kind == "cut" and arg.isdigit():
            n = int(arg)
            self.head(n)
            self.wfile.write(b"y" * (n // 2))
            self.wfile.flush()
            self.close_connection = True
            self.connection.shutdown(2)
        elif kind == "named":
            name = query.get("as", [arg])[0]
            body = b"named body\n"
            self.send_body(200, "text/plain", body, [("Content-Disposition", f'attachment; filename="{name}"')])
        else:
            self.text(404, "unknown path\n")

    def text(self, status, body):
        self.send_body(status, "text/plain", body.encode())

    def sink(self):
        if parse_qs(urlsplit(self.path).query).get("early") == ["1"]:
            return self.early()
        digest = hashlib.sha256()
        count = 0
        chunked = "chunked" in self.headers.get("Transfer-Encoding", "").lower()
        if chunked:
            while True:
                size = int(self.rfile.readline().split(b";")[0].strip(), 16)
                if size == 0:
                    while self.rfile.readline() not in (b"\r\n", b"\n", b""):
                        pass
                    break
                read = self.discard(size, digest)
                count += read
                if read < size:
                    return
                self.rfile.readline()
        else:
            length = int(self.headers.get("Content-Length", "0"))
            seconds = float(parse_qs(urlsplit(self.path).query).get("seconds", ["0"])[0])
            pause = seconds * CHUNK / length if length and seconds else 0
            count = self.discard(length, digest, pause)
            if count < length:
                return
        close = parse_qs(urlsplit(self.path).query).get("close") == ["1"]
        self.send_json(200, {"bytes": count, "sha256": digest.hexdigest(), "chunked": chunked,
                             "contentType": self.headers.get("Content-Type")},
                       headers=[("Connection", "close")] if close else ())
        if close:
            self.close_connection = True

    def early(self):
        self.send_json(200, {"bytes": -1}, headers=[("Connection", "close")])
        self.wfile.flush()
        self.connection.shutdown(socket.SHUT_WR)
        self.discard(int(self.headers.get("Content-Length", "0")), hashlib.sha256())
        self.close_connection = True

    def do_POST(self):
        if urlsplit(self.path).path == "/sink":
            return self.sink()
        self.text(404, "unknown path\n")

    do_PUT = do_POST


if __name__ == "__main__":
    serve(Handler, lambda p: p.add_argument("--root", default="."), lifetime=120)
