#!/usr/bin/env python3
"""A WebSocket test server for apicli's live `task: { websocket: }` tests, on PyPI's `websockets`
(the venv's: `make venv`). Prints its port, then serves on 127.0.0.1:

  /echo      every message back as it came (text as text, binary as binary)
  /info      first a JSON message: the handshake's headers the tests look at (Authorization,
             X-Test, Cookie), the subprotocol and the extensions agreed; then echoes
  /push      n1, n2, n3 (--gap ms apart), then stays open without a word
  /bye       "bye", then closes with 1000
  /refuse    answers the handshake with 403
  /digest    HTTP Digest (RFC 7616, MD5, qop=auth) for user "ann", password "digest-pass-3":
             without a valid Authorization, 401 with a `WWW-Authenticate: Digest` challenge (to a
             handshake or a plain GET alike); with one, the handshake goes on and the messages echo
  /log       (HTTP GET) the close codes clients sent, one a line

Subprotocols offered: chat and superchat (the first the client lists that is one of them).
--certfile/--keyfile (or --cert/--key): wss (TLS) instead of ws.
"""
import asyncio
import hashlib
import json
import secrets
import sys

from websockets.asyncio.server import serve
from websockets.datastructures import Headers
from websockets.exceptions import ConnectionClosed
from websockets.http11 import Response
from serve import announce, arguments, end_after, tls_context

SUBPROTOCOLS = ["chat", "superchat"]
CLOSES = []


def select_subprotocol(connection, offered):
    for name in offered:
        if name in SUBPROTOCOLS:
            return name
    return None


async def echo(ws):
    try:
        async for message in ws:
            await ws.send(message)
    except ConnectionClosed:
        pass
    finally:
        if ws.close_code is not None:
            CLOSES.append(str(ws.close_code))


async def handler(ws, gap):
    path = ws.request.path
    if path == "/info":
        h = ws.request.headers
        info = {
            "authorization": h.get("Authorization"),
            "x-test": h.get("X-Test"),
            "cookie": h.get("Cookie"),
            "protocol": ws.subprotocol,
            "extensions": [e.name for e in ws.protocol.extensions],
        }
        await ws.send(json.dumps(info))
        await echo(ws)
    elif path == "/push":
        for n in (1, 2, 3):
            await asyncio.sleep(gap)
            await ws.send(f"n{n}")
        await echo(ws)
    elif path == "/bye":
        await ws.send("bye")
        await ws.close(1000, "done")
    else:
        await echo(ws)


DIGEST_USER, DIGEST_PASSWORD, DIGEST_REALM = "ann", "digest-pass-3", "ws"
NONCES = set()


def md5(text):
    return hashlib.md5(text.encode()).hexdigest()


def digest_ok(header):
    if not header or not header.startswith("Digest "):
        return False
    fields = {}
    for part in header[len("Digest "):].split(","):
        if "=" in part:
            k, v = part.strip().split("=", 1)
            fields[k.strip()] = v.strip().strip('"')
    if fields.get("username") != DIGEST_USER or fields.get("nonce") not in NONCES:
        return False
    ha1 = md5(f"{DIGEST_USER}:{DIGEST_REALM}:{DIGEST_PASSWORD}")
    ha2 = md5(f"GET:{fields.get('uri', '')}")
    expected = md5(f"{ha1}:{fields['nonce']}:{fields.get('nc', '')}:{fields.get('cnonce', '')}:auth:{ha2}")
    return fields.get("qop") == "auth" and fields.get("response") == expected


def process_request(connection, request):
    if request.path == "/digest" and not digest_ok(request.headers.get("Authorization")):
        nonce = secrets.token_hex(16)
        NONCES.add(nonce)
        challenge = f'Digest realm="{DIGEST_REALM}", qop="auth", nonce="{nonce}", algorithm=MD5'
        return Response(401, "Unauthorized", Headers([("WWW-Authenticate", challenge), ("Content-Type", "text/plain")]),
                        b"digest needed\n")
    if request.path == "/refuse":
        return connection.respond(403, "no\n")
    if request.path == "/log":
        return Response(200, "OK", Headers([("Content-Type", "text/plain")]), ("".join(c + "\n" for c in CLOSES)).encode())
    return None


async def main():
    # asyncio and `websockets`, not an HTTP server: the shared options, first line and lifetime
    # from serve.py.
    args = arguments(60, lambda p: p.add_argument("--gap", type=int, default=300, help="ms between /push messages"),
                     tls=True)
    gap = args.gap / 1000
    async with serve(lambda ws: handler(ws, gap), "127.0.0.1", args.port, ssl=tls_context(args),
                     subprotocols=SUBPROTOCOLS, select_subprotocol=select_subprotocol,
                     process_request=process_request) as server:
        announce(server.sockets[0].getsockname()[1], bare_port=True)
        end_after(args.lifetime)
        await server.serve_forever()


if __name__ == "__main__":
    try:
        asyncio.run(main())
    except KeyboardInterrupt:
        sys.exit(0)
