#!/usr/bin/env python3
"""httpbin over HTTP/2 cleartext with prior knowledge (h2c), for apicli's engine contract tests.

    .venv/bin/python scripts/h2c-httpbin.py [--lifetime SECONDS]

Serves httpbin's app through Hypercorn on a free 127.0.0.1 port and prints its URL on stdout.
Hypercorn answers a connection that starts with the HTTP/2 preface in HTTP/2 (RFC 9113 §3.3), and
HTTP/1.1 otherwise, so the same cases run on every connector of the engine. Needs the venv's
httpbin and hypercorn (`make venv`).
"""
import argparse
import asyncio
import socket
import sys

from httpbin import app
from hypercorn.asyncio import serve
from hypercorn.config import Config


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--lifetime", type=float, default=300)
    args = parser.parse_args()
    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    port = sock.getsockname()[1]
    sock.close()
    config = Config()
    config.bind = [f"127.0.0.1:{port}"]
    config.accesslog = None
    config.errorlog = None
    config.loglevel = "ERROR"

    async def run():
        stop = asyncio.Event()
        asyncio.get_running_loop().call_later(args.lifetime, stop.set)
        server = asyncio.create_task(serve(app, config, mode="wsgi", shutdown_trigger=stop.wait))
        # Ready once it accepts a connection.
        for _ in range(200):
            try:
                _, writer = await asyncio.open_connection("127.0.0.1", port)
                writer.close()
                break
            except OSError:
                await asyncio.sleep(0.02)
        print(f"http://127.0.0.1:{port}", flush=True)
        await server

    asyncio.run(run())


if __name__ == "__main__":
    sys.exit(main())
