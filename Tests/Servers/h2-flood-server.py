#!/usr/bin/env python3
"""A hostile HTTP/2 cleartext (prior knowledge) server for apicli's h2c tests: raw frames, no h2
library, loopback only, bounded lifetime.

    python3 Tests/Servers/h2-flood-server.py [--lifetime SECONDS] [--flood KIND] [--seconds S]

Reads the client preface and its first request, then answers with one flood (--flood, default
ping) for at most --seconds (default 20) or until the client goes, while it drains what the client
writes (so the client's own answers, such as PING ACKs, never back up):

    ok            a well-formed 200 "ok" (control case: the server speaks HTTP/2)
    ping          PING frames, each asking for an ACK
    settings      empty SETTINGS frames, each asking for an ACK
    continuation  a HEADERS frame without END_HEADERS, then empty CONTINUATION frames
    rst           RST_STREAM frames on the request's stream (after the response has begun)
    empty-data    a response head, then empty DATA frames without END_STREAM

Each connection prints nothing; the first line of output is the URL.
"""
import socket
import struct
import threading
import time

from serve import arguments, serve_raw

PREFACE = b"PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n"
DATA, HEADERS, RST_STREAM, SETTINGS, PING, CONTINUATION = 0, 1, 3, 4, 6, 9
END_STREAM, END_HEADERS, ACK = 0x1, 0x4, 0x1
# HPACK: ":status: 200" is static table entry 8 (indexed: 0x88).
STATUS_200 = b"\x88"


def frame(kind, flags, stream, payload=b""):
    return struct.pack(">I", len(payload))[1:] + bytes([kind, flags]) + struct.pack(">I", stream) + payload


def read_exactly(conn, n):
    data = b""
    while len(data) < n:
        chunk = conn.recv(n - len(data))
        if not chunk:
            raise ConnectionError("closed")
        data += chunk
    return data


def first_request(conn):
    """Reads the preface and frames until a HEADERS frame; returns its stream id."""
    if read_exactly(conn, len(PREFACE)) != PREFACE:
        raise ConnectionError("no HTTP/2 preface")
    while True:
        head = read_exactly(conn, 9)
        length = int.from_bytes(head[:3], "big")
        kind, stream = head[3], int.from_bytes(head[5:9], "big") & 0x7FFFFFFF
        read_exactly(conn, length)
        if kind == HEADERS:
            return stream


def drain(conn):
    try:
        while conn.recv(65536):
            pass
    except OSError:
        pass


def handle(conn, args):
    try:
        conn.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        conn.sendall(frame(SETTINGS, 0, 0))
        stream = first_request(conn)
        threading.Thread(target=drain, args=(conn,), daemon=True).start()
        if args.flood == "ok":
            conn.sendall(frame(SETTINGS, ACK, 0) + frame(HEADERS, END_HEADERS, stream, STATUS_200)
                         + frame(DATA, END_STREAM, stream, b"ok"))
            time.sleep(1)
            return
        if args.flood == "ping":
            batch = b"".join(frame(PING, 0, 0, struct.pack(">Q", i)) for i in range(1000))
        elif args.flood == "settings":
            batch = frame(SETTINGS, 0, 0) * 1000
        elif args.flood == "continuation":
            conn.sendall(frame(HEADERS, 0, stream, STATUS_200))
            batch = frame(CONTINUATION, 0, stream) * 1000
        elif args.flood == "rst":
            conn.sendall(frame(HEADERS, END_HEADERS, stream, STATUS_200))
            batch = frame(RST_STREAM, 0, stream, struct.pack(">I", 8)) * 1000
        elif args.flood == "empty-data":
            conn.sendall(frame(HEADERS, END_HEADERS, stream, STATUS_200))
            batch = frame(DATA, 0, stream) * 1000
        else:
            raise ValueError(args.flood)
        end = time.time() + args.seconds
        while time.time() < end:
            conn.sendall(batch)
    except OSError:
        pass
    finally:
        conn.close()


def main():
    args = arguments(60, lambda p: (
        p.add_argument("--flood", default="ping", choices=["ok", "ping", "settings", "continuation", "rst", "empty-data"]),
        p.add_argument("--seconds", type=float, default=20)))
    serve_raw(lambda conn: handle(conn, args), args)

if __name__ == "__main__":
    main()
