#!/usr/bin/env python3
"""A misbehaving HTTP server for apicli's tests: loopback only, bounded lifetime.

    python3 scripts/faultserver.py [--lifetime SECONDS]

Binds 127.0.0.1 on a free port, prints the port on stdout, then answers each path with one fault:

    /ok              a well-formed 200 (control case)
    /reset-headers   part of the head, then a TCP reset
    /short-body      Content-Length: 1000, 10 bytes, close
    /stall-headers   accepts and sends nothing (until the client leaves, at most 60 s)
    /stall-body      the head and 10 of 100 bytes, then nothing
    /bad-status      a malformed status line
    /redirect-loop   302 to itself, forever
    /huge-header     a 100 MB header line (stops when the client hangs up)
    /bad-gzip        Content-Encoding: gzip over bytes that do not inflate
    /flaky/N/KEY     503 with Retry-After: 0 for the first N requests per KEY, then 200
"""
import argparse
import socket
import struct
import threading
import time

flaky_counts = {}
flaky_lock = threading.Lock()


def send(conn, data):
    try:
        conn.sendall(data)
        return True
    except OSError:
        return False


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

    if path == "/ok":
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


def serve(conn):
    try:
        handle(conn)
    finally:
        try:
            conn.close()
        except OSError:
            pass


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--lifetime", type=float, default=600, help="exit after this many seconds")
    args = parser.parse_args()
    listener = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    listener.bind(("127.0.0.1", 0))
    listener.listen(64)
    print(listener.getsockname()[1], flush=True)
    deadline = time.monotonic() + args.lifetime
    listener.settimeout(1)
    while time.monotonic() < deadline:
        try:
            conn, _ = listener.accept()
        except socket.timeout:
            continue
        threading.Thread(target=serve, args=(conn,), daemon=True).start()


if __name__ == "__main__":
    main()
