#!/usr/bin/env python3
"""A tiny HTTP server whose responses change shape, for apicli's drift tests. Loopback only,
bounded lifetime.

    Tests/Servers/shape-server.py [--lifetime SECONDS]   # prints its URL (http://127.0.0.1:PORT), then serves

GET /item       JSON in shape 1: {"id": 1, "price": 9.5, "owner": {"login": "a"}, "items": [{"sku": "x", "qty": 1}]}
POST /switch    from now on /item answers shape 2 (id a string, owner gone, items[*].qty a string, extra field)
GET /page       text/html (a gateway's error page where JSON was declared)
GET /big        JSON whose numbers a Double would change and whose keys are not sorted, as these bytes:
                {"zeta": 1, "id": 9007199254740993, "price": 1.50, "big": -12345678901234567890123, "e": 1E+2}
The server exits after --lifetime seconds (default 60).
"""
import json

from serve import QuietHandler, serve

state = {"shape": 1}

SHAPES = {
    1: {"id": 1, "price": 9.5, "owner": {"login": "a"}, "items": [{"sku": "x", "qty": 1}]},
    2: {"id": "1", "price": 9.5, "items": [{"sku": "x", "qty": "1"}], "extra": True},
}

BIG = b'{"zeta": 1, "id": 9007199254740993, "price": 1.50, "big": -12345678901234567890123, "e": 1E+2}'


class Handler(QuietHandler):
    protocol_version = "HTTP/1.1"

    def do_GET(self):
        if self.path == "/item":
            self.send_body(200, "application/json; charset=utf-8", json.dumps(SHAPES[state["shape"]]).encode())
        elif self.path == "/big":
            self.send_body(200, "application/json", BIG)
        elif self.path == "/page":
            self.send_body(502, "text/html", b"<html>bad gateway</html>")
        else:
            self.send_body(404, "text/plain", b"no such path")

    def do_POST(self):
        length = int(self.headers.get("Content-Length") or 0)
        self.rfile.read(length)
        if self.path == "/switch":
            state["shape"] = 2
            self.send_body(200, "text/plain", b"shape 2")
        else:
            self.send_body(404, "text/plain", b"no such path")


if __name__ == "__main__":
    serve(Handler, lifetime=60)
