#!/usr/bin/env python3
"""A server for apicli's one-send-path matrix: a login flow, an OAuth2 resource, a job to poll and
a flaky endpoint, with every request logged in order. Loopback only, bounded lifetime.

    python3 Tests/Servers/flow-server.py [--lifetime SECONDS]      # prints its URL, then serves

    POST /login      {"token": "tok-N"} (N counts logins)
    GET  /me         200 {"user": "ada", "token": T} when X-Token is the last token issued, else 401
    POST /token      OAuth2 client credentials (client app:s3cret as HTTP Basic): {"access_token": "at-N", ...}
    GET  /resource   200 {"ok": true} with a Bearer token issued here, else 401
    GET  /job        {"state": "pending"} twice, then {"state": "done"} (counted per reset)
    GET  /flaky      503 (Retry-After: 0) twice, then 200 {"ok": true} (counted per reset)
    POST /token-moved  307 to /token on http://localhost:PORT (another origin)
    ANY  /hop        307 to /landing on http://localhost:PORT (another origin)
    ANY  /landing    200 {"ok": true}
    GET  /log        the requests so far, in order: [{"method", "path", "x_token", "authorization", "x_api_key", "host", "body", "issued"}]
    POST /reset      forgets the log and the counts (not the tokens' validity)
"""
import base64
import threading

from serve import QuietHandler, serve

lock = threading.Lock()
log = []
counts = {}
state = {"login": 0, "token": None, "oauth": 0, "access": set()}


class Handler(QuietHandler):
    protocol_version = "HTTP/1.1"

    def record(self):
        length = int(self.headers.get("Content-Length", "0") or 0)
        body = self.rfile.read(length) if length else b""
        if self.path not in ("/log", "/reset"):
            with lock:
                log.append({"method": self.command, "path": self.path,
                            "x_token": self.headers.get("X-Token"), "authorization": self.headers.get("Authorization"),
                            "x_api_key": self.headers.get("X-Api-Key"), "host": self.headers.get("Host"),
                            "body": body.decode("utf-8", "replace")})
                counts[self.path] = counts.get(self.path, 0) + 1
        return body

    def moved(self, path):
        port = self.server.server_address[1]
        self.send_response(307)
        self.send_header("Location", "http://localhost:%d%s" % (port, path))
        self.send_header("Content-Length", "0")
        self.end_headers()

    def do_GET(self):
        self.record()
        if self.path == "/hop":
            return self.moved("/landing")
        if self.path == "/landing":
            return self.send_json(200, {"ok": True})
        with lock:
            n = counts.get(self.path, 0)
            token, access = state["token"], set(state["access"])
        if self.path == "/log":
            with lock:
                return self.send_json(200, list(log))
        if self.path == "/me":
            got = self.headers.get("X-Token")
            return self.send_json(200, {"user": "ada", "token": got}) if got and got == token else self.send_json(401, {"error": "login first"})
        if self.path == "/resource":
            auth = self.headers.get("Authorization", "")
            return self.send_json(200, {"ok": True}) if auth.startswith("Bearer ") and auth[7:] in access else self.send_json(401, {"error": "invalid_token"})
        if self.path == "/job":
            return self.send_json(200, {"state": "done" if n > 2 else "pending"})
        if self.path == "/flaky":
            return self.send_json(200, {"ok": True}) if n > 2 else self.send_json(503, {"error": "try again"}, [("Retry-After", "0")])
        self.send_json(404, {"error": "not found"})

    def do_POST(self):
        self.record()
        if self.path == "/reset":
            with lock:
                log.clear()
                counts.clear()
            return self.send_json(200, {"ok": True})
        if self.path == "/token-moved":
            return self.moved("/token")
        if self.path == "/hop":
            return self.moved("/landing")
        if self.path == "/landing":
            return self.send_json(200, {"ok": True})
        if self.path == "/login":
            with lock:
                state["login"] += 1
                state["token"] = "tok-%d" % state["login"]
                token = state["token"]
                log[-1]["issued"] = token
            return self.send_json(201, {"token": token})
        if self.path == "/token":
            expected = "Basic " + base64.b64encode(b"app:s3cret").decode()
            if self.headers.get("Authorization") != expected:
                return self.send_json(401, {"error": "invalid_client"})
            with lock:
                state["oauth"] += 1
                access = "at-%d" % state["oauth"]
                state["access"].add(access)
            return self.send_json(200, {"access_token": access, "token_type": "Bearer", "expires_in": 3600})
        self.send_json(404, {"error": "not found"})


if __name__ == "__main__":
    serve(Handler, lifetime=120)
