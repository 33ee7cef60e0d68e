"""The one main of apicli's test servers: loopback only, a free port, a bounded lifetime.

An HTTP test server is its handler class and its own options:

    from serve import QuietHandler, serve

    class Shapes(QuietHandler):
        protocol_version = "HTTP/1.1"
        def do_GET(self): ...            # its options: self.server.args.NAME

    if __name__ == "__main__":
        serve(Shapes, lambda p: p.add_argument("--gap", type=int, default=300), lifetime=60)

`serve` parses `--lifetime SECONDS` and `--port N` (0, the default: a free port) beside the
server's own options (`--help` shows them under the server's docstring), binds 127.0.0.1, prints
the first line the tests read (`http://127.0.0.1:PORT`, or the bare port with `bare_port=True`:
Tests/TestServers/TestServer.swift takes either, bench/*.sh read the URL), and serves until the
lifetime ends the process. Servers that are not a ThreadingHTTPServer (faultserver.py's raw
sockets, ws-echo-server.py's asyncio) use `arguments`, `tls_context`, `announce` and `end_after`;
the raw-socket ones serve each connection with `serve_raw`; record-har.py, which serves only while
Chromium records, uses `listen`.
"""
import argparse
import json
import os
import socket
import sys
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer


class QuietHandler(BaseHTTPRequestHandler):
    """A quiet handler: no access log on stderr. Headers and body go out in separate writes:
    without TCP_NODELAY each response would wait for the client's delayed ACK (~40 ms)."""
    disable_nagle_algorithm = True

    def log_message(self, *args):
        pass

    def send_body(self, status, content_type, body, headers=()):
        """A whole response: status, Content-Type, Content-Length, `headers` (name, value), `body` bytes."""
        self.send_response(status)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(body)))
        for name, value in headers:
            self.send_header(name, value)
        self.end_headers()
        self.wfile.write(body)

    def send_json(self, status, value, headers=(), content_type="application/json"):
        """`value` as a JSON response."""
        self.send_body(status, content_type, json.dumps(value).encode(), headers)


def arguments(lifetime, add_arguments=None, tls=False):
    """The parsed command line: `--lifetime` (default `lifetime` seconds), `--port`, with `tls`
    `--certfile/--keyfile` (also spelled `--cert/--key`), and what `add_arguments(parser)` adds."""
    main = sys.modules["__main__"]
    parser = argparse.ArgumentParser(description=main.__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--lifetime", type=float, default=lifetime, help=f"exit after this many seconds (default {lifetime:g})")
    parser.add_argument("--port", type=int, default=0, help="listen on this 127.0.0.1 port (default 0: a free one)")
    if tls:
        parser.add_argument("--certfile", "--cert", help="serve TLS with this certificate (PEM)")
        parser.add_argument("--keyfile", "--key", help="and this private key (PEM)")
    if add_arguments:
        add_arguments(parser)
    return parser.parse_args()


def tls_context(args):
    """A server-side TLS context from `--certfile/--keyfile`, or None without them."""
    if not args.certfile:
        return None
    import ssl
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    context.load_cert_chain(args.certfile, args.keyfile)
    return context


def announce(port, bare_port=False):
    """The first line of output, the one the tests wait for: the URL, or the bare port."""
    print(port if bare_port else f"http://127.0.0.1:{port}", flush=True)


def end_after(seconds):
    """Ends the process after `seconds`, whatever its threads are doing (a handler stuck on a
    silent client included): a test server never outlives its lifetime."""
    timer = threading.Timer(seconds, os._exit, [0])
    timer.daemon = True
    timer.start()


def listen(handler, port=0, backlog=64):
    """`handler` bound to 127.0.0.1:`port` (0: a free one), a thread per connection, not yet serving."""
    class Server(ThreadingHTTPServer):
        request_queue_size = backlog

    return Server(("127.0.0.1", port), handler)


def serve(handler, add_arguments=None, lifetime=120, bare_port=False, backlog=64):
    """Parses the command line, serves `handler` on 127.0.0.1 with a thread per connection
    (`self.server.args` holds the options), prints the URL (or the port), and returns never: the
    lifetime ends the process. `backlog` is the listen queue (the default of 5 refuses bursts)."""
    args = arguments(lifetime, add_arguments)
    server = listen(handler, args.port, backlog)
    server.args = args
    announce(server.server_address[1], bare_port)
    end_after(args.lifetime)
    server.serve_forever()


def send(conn, data):
    """`data` written whole to a raw socket: False when the client has gone."""
    try:
        conn.sendall(data)
        return True
    except OSError:
        return False


def serve_raw(handle, args, bare_port=False, backlog=64):
    """Raw sockets, for servers whose point is bytes an HTTP server would not send: binds
    127.0.0.1:`args.port`, prints the first line, ends after `args.lifetime`, and calls
    `handle(conn)` on a thread of its own for each connection. Returns never."""
    listener = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    listener.bind(("127.0.0.1", args.port))
    listener.listen(backlog)
    announce(listener.getsockname()[1], bare_port)
    end_after(args.lifetime)
    while True:
        conn, _ = listener.accept()
        threading.Thread(target=handle, args=(conn,), daemon=True).start()
