#!/usr/bin/env python3
"""A misbehaving HTTP server for apicli's tests: loopback only, bounded lifetime.

    python3 Tests/Servers/faultserver.py [--lifetime SECONDS] [--certfile CERT --keyfile KEY] [--raw close|http]

Binds 127.0.0.1 on a free port, prints the port on stdout, then answers each path with one fault
(over TLS with --certfile/--keyfile, for the certificate trust tests):

    /ok              a well-formed 200 (control case)
    /reset-headers   part of the head, then a TCP reset
    /short-body      Content-Length: 1000, 10 bytes, close
    /stall-headers   accepts and sends nothing (until the client leaves, at most 60 s)
    /stall-body      the head and 10 of 100 bytes, then nothing
    /bad-status      a malformed status line
    /redirect-loop   302 to itself, forever
    /huge-header     a 100 MB header line (stops when the client hangs up)
    /bad-gzip        Content-Encoding: gzip over bytes that do not inflate
    /gzip-bomb       Content-Encoding: gzip, 64 KiB that inflate to 64 MiB of zeros
    /gzip-bomb-chunked  the same, chunked (no Content-Length)
    CONNECT h:p      as a proxy: a tunnel to h:p (logged with its Proxy-Authorization)
    /job/N/KEY       {"state": "running"} for the first N requests per KEY, then {"state": "done"} (until: polling)
    /job-fail/N/KEY  the same, then {"state": "failed"}
    /count/KEY       {"count": N, "token": "tok-KEY-N"}: how many times KEY was asked for (flows run a need once)
    /proxy-log       the tunnels opened so far, as JSON: [{"target": "h:p", "authorization": …}]
    /flaky/N/KEY     503 with Retry-After: 0 for the first N requests per KEY, then 200
    /keep-then-drop  a 200 that keeps the connection alive; the next request on it is read and the
                     connection closed unanswered (a kept connection the server dropped)

With --raw, every connection is answered as soon as it sends something, whatever it is: `close`
closes it, `http` writes an HTTP 400 (what a TLS client meets at a plain or closing port: NetworkWordsTests).
"""
import gzip
import socket
import ssl
import struct
import threading

from serve import arguments, send, serve_raw, tls_context

flaky_counts = {}
flaky_lock = threading.Lock()


bomb_bytes = []
bomb_lock = threading.Lock()


def bomb():
    """64 MiB of zeros, gzipped once per server (seconds of CPU each time otherwise)."""
    with bomb_lock:
        if not bomb_bytes:
            bomb_bytes.append(gzip.compress(b"\0" * (64 << 20), compresslevel=9))
        return bomb_bytes[0]


def head(status, headers, body=b""):
    lines = [f"HTTP/1.1 {status}"] + [f"{k}: {v}" for k, v in headers] + ["", ""]
    return "\r\n".join(lines).encode() + body


def stall(conn, seconds=60):
    """Wait until the client closes or `seconds` pass, sending nothing."""
    conn.settimeout(seconds)
    try:
        while conn.recv(4096):
            pass
    except OSError:
        pass


def handle(conn):
    conn.settimeout(10)
    request = b""
    try:
        while b"\r\n\r\n" not in request and len(request) < 65536:
            chunk = conn.recv(4096)
            if not chunk:
                return
            request += chunk
    except OSError:
        return
    path = request.split(b" ", 2)[1].decode("latin-1") if request.count(b" ") >= 2 else "/"

    if path == "/keep-then-drop":
        if send(conn, head("200 OK", [("Content-Type", "text/plain"), ("Content-Length", "4")], b"kept")):
            try:
                conn.recv(65536)
            except OSError:
                pass
    elif path == "/ok":
        send(conn, head("200 OK", [("Content-Type", "text/plain"), ("Content-Length", "2"), ("Connection", "close")], b"ok"))
    elif path == "/reset-headers":
        send(conn, b"HTTP/1.1 200 OK\r\nContent-Ty")
        conn.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
    elif path == "/short-body":
        send(conn, head("200 OK", [("Content-Length", "1000"), ("Connection", "close")], b"0123456789"))
    elif path == "/stall-headers":
        stall(conn)
    elif path == "/stall-body":
        if send(conn, head("200 OK", [("Content-Length", "100")], b"0123456789")):
            stall(conn)
    elif path == "/bad-status":
        send(conn, b"HTTX/9.9 abc nonsense\r\nContent-Length: 0\r\n\r\n")
    elif path == "/redirect-loop":
        send(conn, head("302 Found", [("Location", "/redirect-loop"), ("Content-Length", "0"), ("Connection", "close")]))
    elif path == "/huge-header":
        if send(conn, b"HTTP/1.1 200 OK\r\nX-Big: "):
            block = b"a" * 65536
            for _ in range((100 << 20) // len(block)):
                if not send(conn, block):
                    break
            send(conn, b"\r\nContent-Length: 0\r\n\r\n")
    elif path == "/bad-gzip":
        body = b"this is not gzip at all" * 10
        send(conn, head("200 OK", [("Content-Encoding", "gzip"), ("Content-Type", "application/json"),
                                   ("Content-Length", str(len(body))), ("Connection", "close")], body))
    elif path == "/gzip-bomb":
        body = bomb()
        send(conn, head("200 OK", [("Content-Encoding", "gzip"), ("Content-Type", "application/octet-stream"),
                                   ("Content-Length", str(len(body))), ("Connection", "close")], body))
    elif path == "/gzip-bomb-chunked":
        body = bomb()
        chunks = b"".join(b"%x\r\n%s\r\n" % (len(body[i:i + 4096]), body[i:i + 4096]) for i in range(0, len(body), 4096))
        send(conn, head("200 OK", [("Content-Encoding", "gzip"), ("Content-Type", "application/octet-stream"),
                                   ("Transfer-Encoding", "chunked"), ("Connection", "close")], chunks + b"0\r\n\r\n"))
    elif request.startswith(b"CONNECT "):
        tunnel(conn, request)
    elif path.startswith("/job/") or path.startswith("/job-fail/"):
        import json
        parts = path.split("/")
        polls, key = int(parts[2]), "job:" + "/".join(parts[1:])
        with flaky_lock:
            seen = flaky_counts.get(key, 0)
            flaky_counts[key] = seen + 1
        state = "running" if seen < polls else ("failed" if parts[1] == "job-fail" else "done")
        body = json.dumps({"state": state, "polls": seen + 1}).encode()
        send(conn, head("200 OK", [("Content-Type", "application/json"), ("Content-Length", str(len(body))),
                                   ("Connection", "close")], body))
    elif path.startswith("/count/"):
        import json
        key = path[len("/count/"):]
        with flaky_lock:
            flaky_counts["count:" + key] = flaky_counts.get("count:" + key, 0) + 1
            n = flaky_counts["count:" + key]
        body = json.dumps({"count": n, "token": f"tok-{key}-{n}"}).encode()
        send(conn, head("200 OK", [("Content-Type", "application/json"), ("Content-Length", str(len(body))),
                                   ("Connection", "close")], body))
    elif path == "/proxy-log":
        import json
        with flaky_lock:
            body = json.dumps(proxy_log).encode()
        send(conn, head("200 OK", [("Content-Type", "application/json"), ("Content-Length", str(len(body))),
                                   ("Connection", "close")], body))
    elif path.startswith("/flaky/"):
        parts = path.split("/")
        failures, key = int(parts[2]), "/".join(parts[3:])
        with flaky_lock:
            seen = flaky_counts.get(key, 0)
            flaky_counts[key] = seen + 1
        if seen < failures:
            send(conn, head("503 Service Unavailable", [("Retry-After", "0"), ("Content-Length", "4"), ("Connection", "close")], b"busy"))
        else:
            body = f'{{"attempt": {seen + 1}}}'.encode()
            send(conn, head("200 OK", [("Content-Type", "application/json"), ("Content-Length", str(len(body))),
                                       ("Connection", "close")], body))
    else:
        send(conn, head("404 Not Found", [("Content-Length", "0"), ("Connection", "close")]))


proxy_log = []


def tunnel(conn, request):
    """A CONNECT proxy (what async-http-client speaks to any proxy): log the target and the
    Proxy-Authorization, connect, answer 200, then copy bytes both ways."""
    lines = request.split(b"\r\n")
    target = lines[0].split(b" ")[1].decode()
    auth = [l.split(b":", 1)[1].strip().decode() for l in lines if l.lower().startswith(b"proxy-authorization:")]
    with flaky_lock:
        proxy_log.append({"target": target, "authorization": auth[0] if auth else None})
    host, port = target.rsplit(":", 1)
    try:
        upstream = socket.create_connection((host, int(port)), timeout=10)
    except OSError:
        send(conn, head("502 Bad Gateway", [("Content-Length", "0")]))
        return
    send(conn, b"HTTP/1.1 200 Connection Established\r\n\r\n")

    def pump(a, b):
        try:
            while True:
                data = a.recv(65536)
                if not data:
                    break
                b.sendall(data)
        except OSError:
            pass
        finally:
            for s_ in (a, b):
                try:
                    s_.shutdown(socket.SHUT_RDWR)
                except OSError:
                    pass

    conn.settimeout(30)
    upstream.settimeout(30)
    t = threading.Thread(target=pump, args=(upstream, conn), daemon=True)
    t.start()
    pump(conn, upstream)
    t.join(30)
    upstream.close()


def serve(conn, context, raw=None):
    try:
        if raw is not None:
            # What the client sent first (a TLS ClientHello) is read, so closing sends FIN, not RST.
            conn.settimeout(10)
            try:
                conn.recv(65536)
            except OSError:
                return
            if raw == "http":  # plain HTTP whatever comes: a TLS client gets text where a handshake belongs
                send(conn, head("400 Bad Request", [("Content-Length", "0"), ("Connection", "close")]))
            return  # "close": the handshake is cut
        if context is not None:
            conn.settimeout(10)
            try:
                conn = context.wrap_socket(conn, server_side=True)
            except (ssl.SSLError, OSError):
                return  # the client refused our certificate: that is the point of some tests
        handle(conn)
    finally:
        try:
            conn.close()
        except OSError:
            pass


def main():
    # Raw sockets, not an HTTP server (the faults are malformed HTTP): the shared options, first
    # line, lifetime and accept loop from serve.py.
    args = arguments(600, lambda p: p.add_argument(
        "--raw", choices=["close", "http"],
        help="answer every connection at once: close it, or send an HTTP 400 (TLS failure tests)"), tls=True)
    context = tls_context(args)
    serve_raw(lambda conn: serve(conn, context, args.raw), args, bare_port=True)

if __name__ == "__main__":
    main()
