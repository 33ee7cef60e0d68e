#!/usr/bin/env python3
"""httpbin over HTTP/2 cleartext with prior knowledge (h2c), for apicli's engine contract tests.

    .venv/bin/python Tests/Servers/h2c-httpbin.py [--lifetime SECONDS] [--port N]

Serves httpbin's app through Hypercorn on 127.0.0.1 and prints its URL. Hypercorn answers a
connection that starts with the HTTP/2 preface in HTTP/2 (RFC 9113 §3.3), and HTTP/1.1 otherwise,
so the same cases run on every connector of the engine. Needs the venv's httpbin and hypercorn
(`make venv`).
"""
import asyncio
import socket

from httpbin import app
from hypercorn.asyncio import serve
from hypercorn.config import Config

from serve import announce, arguments, end_after


def main():
    args = arguments(300)
    sock = socket.socket()
    sock.bind(("127.0.0.1", args.port))
    port = sock.getsockname()[1]
    sock.close()
    config = Config()
    config.bind = [f"127.0.0.1:{port}"]
    config.accesslog = None
    config.errorlog = None
    config.loglevel = "ERROR"

    async def run():
        server = asyncio.create_task(serve(app, config, mode="wsgi"))
        # Announced once it accepts a connection.
        for _ in range(200):
            try:
                _, writer = await asyncio.open_connection("127.0.0.1", port)
                writer.close()
                break
            except OSError:
                await asyncio.sleep(0.02)
        announce(port)
        end_after(args.lifetime)
        await server

    asyncio.run(run())


if __name__ == "__main__":
    main()
