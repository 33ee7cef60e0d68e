#!/usr/bin/env python3
"""A small OAuth2 authorization and resource server for apicli's tests: loopback only, bounded lifetime.

    python3 Tests/Servers/oauth2-server.py [--lifetime SECONDS] [--expires SECONDS]

Binds 127.0.0.1 on a free port and prints its URL. Paths:

    POST /token      grant_type=client_credentials (client app:s3cret as HTTP Basic),
                     password (user ada, password lovelace), refresh_token (one issued here):
                     {"access_token": "at-N", "token_type": "Bearer", "expires_in": E, "refresh_token": "rt-N"}
    GET  /resource   200 {"ok": true} with a valid, unexpired Bearer token, else 401
    POST /revoke     every token issued so far stops working (the next /resource is a 401)
    GET  /stats      {"client_credentials": n, "password": n, "refresh_token": n, "resource": n}: counts
"""
import base64
import threading
import time
import urllib.parse

from serve import QuietHandler, serve

lock = threading.Lock()
tokens = {}        # access token -> expiry
refresh = set()
stats = {"client_credentials": 0, "password": 0, "refresh_token": 0, "resource": 0}
counter = [0]


class Handler(QuietHandler):
    def do_GET(self):
        if self.path == "/stats":
            with lock:
                return self.send_json(200, dict(stats))
        if self.path == "/resource":
            auth = self.headers.get("Authorization", "")
            token = auth[len("Bearer "):] if auth.startswith("Bearer ") else ""
            with lock:
                stats["resource"] += 1
                ok = token in tokens and tokens[token] > time.time()
            return self.send_json(200, {"ok": True}) if ok else self.send_json(401, {"error": "invalid_token"})
        self.send_json(404, {"error": "not found"})

    def do_POST(self):
        length = int(self.headers.get("Content-Length", "0"))
        form = dict(urllib.parse.parse_qsl(self.rfile.read(length).decode()))
        if self.path == "/revoke":
            with lock:
                tokens.clear()
            return self.send_json(200, {"revoked": True})
        if self.path != "/token":
            return self.send_json(404, {"error": "not found"})
        grant = form.get("grant_type")
        basic = self.headers.get("Authorization", "")
        client_ok = basic == "Basic " + base64.b64encode(b"app:s3cret").decode()
        with lock:
            if grant == "client_credentials" and not client_ok:
                return self.send_json(401, {"error": "invalid_client"})
            if grant == "password" and (form.get("username"), form.get("password")) != ("ada", "lovelace"):
                return self.send_json(400, {"error": "invalid_grant"})
            if grant == "refresh_token" and form.get("refresh_token") not in refresh:
                return self.send_json(400, {"error": "invalid_grant"})
            if grant not in stats:
                return self.send_json(400, {"error": "unsupported_grant_type"})
            stats[grant] += 1
            counter[0] += 1
            n = counter[0]
            expires = self.server.args.expires
            tokens[f"at-{n}"] = time.time() + expires
            refresh.add(f"rt-{n}")
        self.send_json(200, {"access_token": f"at-{n}", "token_type": "Bearer", "expires_in": expires,
                         "refresh_token": f"rt-{n}", "scope": form.get("scope", "")})


if __name__ == "__main__":
    serve(Handler, lambda p: p.add_argument("--expires", type=int, default=3600, help="expires_in of issued tokens, in seconds"),
          lifetime=300)
