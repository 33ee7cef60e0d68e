#!/usr/bin/env python3
"""Records a real HAR with Chromium, for apicli's HAR import tests (ImportHarCLITests).

    .venv/har/bin/python Tests/Servers/record-har.py OUT.har [--chromium PATH]   # make venv makes .venv/har

Serves a small web app on 127.0.0.1 (standard library), opens its page in the system Chromium
driven by Playwright (`executable_path`, no browser download) with `record_har_path`, lets the
page's script call the app's JSON API (ids in paths, a bearer token, an API key in the query, a
session cookie set by the server, a login posting a password, a form post, a 404), waits until
it says it is done, and closes the context, which writes the HAR. Then prints one JSON line:
{"secrets": [...]}: every credential the page used, which an import must never write.
Loopback only; exits non-zero with a message when Chromium or Playwright is missing.
"""
import argparse
import json
import shutil
import sys
import threading

from serve import QuietHandler, listen

TOKEN = "tok-9f2c4e71aa0b"
API_KEY = "key-5d1e77b3c2"
SESSION = "sess-0b8f2a6d3c"
PASSWORD = "pw-Correct-Horse-42"
SECRETS = [TOKEN, API_KEY, SESSION, PASSWORD]

PAGE = f"""<!doctype html>
<html><head><meta charset="utf-8"><title>shop</title>
<link rel="stylesheet" href="/static/app.css"></head>
<body><img src="/static/logo.png" alt=""><p id="state">loading</p>
<script src="/static/app.js"></script>
<script>
(async () => {{
  const auth = {{ "Authorization": "Bearer {TOKEN}", "Accept": "application/json" }};
  // each body read whole before the next request: the recording then holds every response's body
  const fetch = async (url, options) => {{ const r = await window.fetch(url, options); await r.text(); return r; }};
  await fetch("/api/users/1", {{ headers: auth }});
  await fetch("/api/users/2", {{ headers: auth }});
  await fetch("/api/users/999", {{ headers: auth }});
  await fetch("/api/orders/5f1d7c2ab3e4f5a6b7c8d9e0/items?page=2&sort=-date&api_key={API_KEY}", {{ headers: auth }});
  await fetch("/api/login", {{ method: "POST", headers: {{ "Content-Type": "application/json" }},
    body: JSON.stringify({{ user: "ann", password: "{PASSWORD}", note: "{{literal}} ${{HOME}}" }}) }});
  await fetch("/api/search", {{ method: "POST", headers: {{ "Content-Type": "application/x-www-form-urlencoded" }},
    body: "q=caf%C3%A9+au+lait&tags%5B%5D=a&tags%5B%5D=b" }});
  await fetch("/api/me");
  document.getElementById("state").textContent = "done";
}})();
</script></body></html>
"""

PNG = bytes.fromhex("89504e470d0a1a0a0000000d4948445200000001000000010806000000"
                    "1f15c4890000000d49444154789c6360000002000154a24f5d0000000049454e44ae426082")


class App(QuietHandler):
    protocol_version = "HTTP/1.1"

    def do_GET(self):
        path = self.path.split("?")[0]
        if path == "/":
            self.send_body(200, "text/html; charset=utf-8", PAGE.encode(), [("Set-Cookie", f"session={SESSION}; Path=/; HttpOnly")])
        elif path == "/static/app.css":
            self.send_body(200, "text/css", b"body { font-family: sans-serif }")
        elif path == "/static/app.js":
            self.send_body(200, "application/javascript", b"window.app = {};")
        elif path == "/static/logo.png":
            self.send_body(200, "image/png", PNG)
        elif path == "/favicon.ico":
            self.send_body(404, "text/plain", b"none")
        elif path == "/api/users/999":
            self.send_json(404, {"error": "no such user", "id": 999})
        elif path.startswith("/api/users/"):
            uid = int(path.rsplit("/", 1)[1])
            self.send_json(200, {"id": uid, "name": ["", "Ann", "Bob"][uid], "template": "{name}", "tags": ["a", "b"]})
        elif path.startswith("/api/orders/"):
            self.send_json(200, {"items": [{"sku": "A-1", "qty": 2, "price": 9.50}], "page": 2})
        elif path == "/api/me":
            self.send_json(200, {"user": "ann", "session_id": SESSION})
        else:
            self.send_body(404, "text/plain", b"no such path")

    def do_POST(self):
        length = int(self.headers.get("Content-Length") or 0)
        body = self.rfile.read(length)
        if self.path == "/api/login":
            self.send_json(201, {"access_token": TOKEN, "expires_in": 3600}, [("Set-Cookie", f"session={SESSION}; Path=/")])
        elif self.path == "/api/search":
            self.send_json(200, {"query": body.decode(), "hits": 0})
        else:
            self.send_body(404, "text/plain", b"no such path")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("out")
    parser.add_argument("--chromium", default=shutil.which("chromium") or "/usr/bin/chromium")
    args = parser.parse_args()
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        sys.exit("record-har.py: playwright is missing: run `make venv` (it installs playwright into .venv/har)")
    if not shutil.which(args.chromium):
        sys.exit(f"record-har.py: no chromium at {args.chromium}: run `make deps` (Debian package chromium)")
    server = listen(App)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    url = f"http://127.0.0.1:{server.server_address[1]}/"
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=args.chromium, headless=True,
                                    args=["--no-sandbox", "--no-proxy-server", "--disable-gpu"])
        context = browser.new_context(record_har_path=args.out, record_har_content="embed")
        page = context.new_page()
        page.goto(url)
        page.wait_for_function("document.getElementById('state').textContent === 'done'", timeout=20000)
        context.close()
        browser.close()
    server.shutdown()
    print(json.dumps({"secrets": SECRETS, "url": url}), flush=True)


if __name__ == "__main__":
    main()
