#!/usr/bin/env python3
"""A loopback HTTP server that answers every request with the request itself, as sent, for
apicli's curl round-trip tests (ImportCurlRoundTripTests): what curl sends and what the imported
target sends are compared byte for byte. Standard library only; loopback only; bounded lifetime.

    Tests/Servers/echo-server.py [--lifetime SECONDS]   # prints its URL (http://127.0.0.1:PORT), then serves

Every method, every path: 200, application/json, the object
    {"method": "POST", "target": "/p?a=1", "path": "/p", "query": "a=1" (null without '?'),
     "headers": [["Host", "127.0.0.1:PORT"], ...] (as sent: order, case, repeats),
     "body": "<base64 of the body bytes>"}
A HEAD answer has no body: it carries the same object, base64-encoded, in an X-Echo header.
A chunked request body is de-chunked. The server exits after --lifetime seconds (default 120).
"""
import base64
import json

from serve import QuietHandler, serve

MAX_BODY = 16 * 1024 * 1024


class Handler(QuietHandler):
    protocol_version = "HTTP/1.1"

    def body(self):
        if self.headers.get("Transfer-Encoding", "").lower() == "chunked":
            out = b""
            while True:
                size = int(self.rfile.readline().split(b";")[0].strip() or b"0", 16)
                if size == 0:
                    while self.rfile.readline() not in (b"\r\n", b"\n", b""):
                        pass
                    return out
                if len(out) + size > MAX_BODY:
                    raise ValueError("body too large")
                out += self.rfile.read(size)
                self.rfile.readline()
        length = int(self.headers.get("Content-Length") or 0)
        if length < 0 or length > MAX_BODY:
            raise ValueError("bad Content-Length")
        return self.rfile.read(length)

    def echo(self):
        try:
            body = self.body()
        except ValueError as e:
            self.send_error(400, str(e))
            return
        target = self.path
        path, sep, query = target.partition("?")
        answer = json.dumps({
            "method": self.command,
            "target": target,
            "path": path,
            "query": query if sep else None,
            "headers": [[k, v] for k, v in self.headers.raw_items()],
            "body": base64.b64encode(body).decode("ascii"),
        }).encode()
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(answer)))
        if self.command == "HEAD":
            self.send_header("X-Echo", base64.b64encode(answer).decode("ascii"))
        self.end_headers()
        if self.command != "HEAD":
            self.wfile.write(answer)

    def __getattr__(self, name):
        # do_GET, do_POST, do_PURGE, …: every method is echoed.
        if name.startswith("do_"):
            return self.echo
        raise AttributeError(name)


if __name__ == "__main__":
    serve(Handler, lifetime=120)
