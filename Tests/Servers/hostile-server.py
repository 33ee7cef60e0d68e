#!/usr/bin/env python3
"""Hostile HTTP/1.1 responses for the tests of apicli's own response parser (KeepAliveResponseParser):
raw sockets, loopback only, a bounded lifetime.

    python3 Tests/Servers/hostile-server.py [--lifetime SECONDS]

Binds 127.0.0.1 on a free port, prints its URL, reads each request's head and answers by its path:

    /NAME            the response named NAME (RESPONSES below), in one write, then closes
    /split/NAME      the same response one byte a write (TCP_NODELAY, a pause between: every byte its
                     own read), then closes
    /endless-head    a status line, then header fields without end (until the client hangs up)
    /endless-trailers  a chunked body, then trailer fields without end
    /endless-chunk-ext  a chunk-size line whose extension never ends
    /interim-flood   "100 Continue" heads without end
    /count           how many connections were accepted so far (a client that keeps one shows it)
    /leftover        a 200 with 2 bytes of body and then bytes nobody asked for; the connection stays open
    /late-extra      a 200 with 2 bytes of body, then 0.2 s later a response nobody asked for; the connection stays open
"""
import socket
import threading
import time

from serve import arguments, send, serve_raw

OK = b"HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok"

RESPONSES = {
    # well-formed, for control and for split reads
    "ok": OK,
    "chunked": b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n"
               b"5;name=value;x\r\nhello\r\n1;e=\"q\"\r\n,\r\n6\r\n world\r\n0\r\nX-Trailer: t\r\nX-Other: u\r\n\r\n",
    "chunked-upper": b"HTTP/1.1 200 OK\r\nTransfer-Encoding: CHUNKED\r\n\r\nA\r\n0123456789\r\n0\r\n\r\n",
    "until-close": b"HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\n\r\nuntil the close",
    "http10": b"HTTP/1.0 200 OK\r\nContent-Length: 4\r\n\r\nold!",
    "no-reason": b"HTTP/1.1 200\r\nContent-Length: 2\r\n\r\nok",
    "interim": b"HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 103 Early Hints\r\nLink: </a.css>; rel=preload\r\n\r\n" + OK,
    "no-content": b"HTTP/1.1 204 No Content\r\nContent-Length: 5\r\n\r\n",
    "obs-text": b"HTTP/1.1 200 OK\r\nX-Latin: caf\xe9\r\nContent-Length: 2\r\n\r\nok",
    # refused
    "bare-lf": b"HTTP/1.1 200 OK\nContent-Length: 2\n\nok",
    "bare-lf-field": b"HTTP/1.1 200 OK\r\nX-A: 1\nContent-Length: 2\r\n\r\nok",
    "bare-cr": b"HTTP/1.1 200 OK\r\nX-A: 1\rX-B: 2\r\nContent-Length: 2\r\n\r\nok",
    "obs-fold": b"HTTP/1.1 200 OK\r\nX-A: one\r\n two\r\nContent-Length: 2\r\n\r\nok",
    "nul-value": b"HTTP/1.1 200 OK\r\nX-A: a\x00b\r\nContent-Length: 2\r\n\r\nok",
    "space-before-colon": b"HTTP/1.1 200 OK\r\nContent-Length : 2\r\n\r\nok",
    "empty-name": b"HTTP/1.1 200 OK\r\n: x\r\nContent-Length: 2\r\n\r\nok",
    "no-colon": b"HTTP/1.1 200 OK\r\nX-A\r\nContent-Length: 2\r\n\r\nok",
    "cl-te": b"HTTP/1.1 200 OK\r\nContent-Length: 2\r\nTransfer-Encoding: chunked\r\n\r\n2\r\nok\r\n0\r\n\r\n",
    "te-cl": b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\nContent-Length: 2\r\n\r\n2\r\nok\r\n0\r\n\r\n",
    "cl-twice": b"HTTP/1.1 200 OK\r\nContent-Length: 2\r\nContent-Length: 3\r\n\r\nok!",
    "cl-list": b"HTTP/1.1 200 OK\r\nContent-Length: 2, 2\r\n\r\nok",
    "cl-negative": b"HTTP/1.1 200 OK\r\nContent-Length: -1\r\n\r\nok",
    "cl-letters": b"HTTP/1.1 200 OK\r\nContent-Length: 2x\r\n\r\nok",
    "cl-overflow": b"HTTP/1.1 200 OK\r\nContent-Length: 99999999999999999999999\r\n\r\nok",
    "chunk-negative": b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n-1\r\nok\r\n0\r\n\r\n",
    "chunk-overflow": b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n10000000000000000\r\nok\r\n0\r\n\r\n",
    "chunk-overflow-long": b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n" + b"f" * 40 + b"\r\nok\r\n0\r\n\r\n",
    "chunk-empty-size": b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n\r\nok\r\n0\r\n\r\n",
    "chunk-ext-space": b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n2 ;e\r\nok\r\n0\r\n\r\n",
    "chunk-no-crlf": b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n2\r\nokXX0\r\n\r\n",
    "chunk-huge": b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n7fffffffffffffff\r\nonly this much",
    "trailer-bad": b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n2\r\nok\r\n0\r\nX-T\x01: 1\r\n\r\n",
    "bad-version": b"HTTP/2.0 200 OK\r\nContent-Length: 2\r\n\r\nok",
    "bad-status": b"HTTP/1.1 2x0 OK\r\nContent-Length: 2\r\n\r\nok",
    "short-status": b"HTTP/1.1 20 OK\r\nContent-Length: 2\r\n\r\nok",
    "not-http": b"ICY 200 OK\r\nContent-Length: 2\r\n\r\nok",
    "reason-ctl": b"HTTP/1.1 200 O\x07K\r\nContent-Length: 2\r\n\r\nok",
    "truncated-head": b"HTTP/1.1 200 OK\r\nContent-Len",
    "truncated-body": b"HTTP/1.1 200 OK\r\nContent-Length: 10\r\n\r\nabc",
    "truncated-chunk": b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\na\r\nabc",
    "huge-header": b"HTTP/1.1 200 OK\r\nX-Big: " + b"a" * (100 * 1024) + b"\r\nContent-Length: 2\r\n\r\nok",
    "many-fields": b"HTTP/1.1 200 OK\r\n" + b"".join(b"X-%d: 1\r\n" % i for i in range(2000)) + b"Content-Length: 2\r\n\r\nok",
}

connections = [0]
count_lock = threading.Lock()


def read_head(conn):
    request = b""
    while b"\r\n\r\n" not in request and len(request) < 65536:
        chunk = conn.recv(4096)
        if not chunk:
            return None
        request += chunk
    return request


def endless(conn, first, line):
    """`first`, then `line` again and again until the client hangs up (or 60 s)."""
    if not send(conn, first):
        return
    block = line * max(1, 4096 // len(line))
    end = time.time() + 60
    while time.time() < end and send(conn, block):
        pass


def handle(conn):
    with count_lock:
        connections[0] += 1
    conn.settimeout(10)
    conn.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
    try:
        while True:
            request = read_head(conn)
            if request is None:
                return
            path = request.split(b" ", 2)[1].decode("latin-1") if request.count(b" ") >= 2 else "/"
            name = path.lstrip("/")
            if name == "count":
                with count_lock:
                    body = str(connections[0]).encode()
                send(conn, b"HTTP/1.1 200 OK\r\nContent-Length: %d\r\n\r\n%s" % (len(body), body))
                continue  # kept
            if name == "leftover":
                send(conn, OK + b"HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\nextra")
                continue  # kept: the client must not take it again
            if name == "late-extra":
                send(conn, OK)
                time.sleep(0.2)
                send(conn, b"HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\nextra")
                continue  # kept: the client must not take it again
            if name == "keep":
                send(conn, OK)
                continue
            if name == "endless-head":
                return endless(conn, b"HTTP/1.1 200 OK\r\n", b"X-More: more and more\r\n")
            if name == "endless-trailers":
                return endless(conn, b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n2\r\nok\r\n0\r\n",
                               b"X-Trailer: more and more\r\n")
            if name == "endless-chunk-ext":
                return endless(conn, b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n2;ext=", b"a")
            if name == "interim-flood":
                return endless(conn, b"", b"HTTP/1.1 100 Continue\r\n\r\n")
            if name.startswith("split/"):
                data = RESPONSES.get(name[len("split/"):], b"HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\n\r\n")
                for i in range(len(data)):
                    if not send(conn, data[i:i + 1]):
                        break
                    time.sleep(0.002)
            else:
                send(conn, RESPONSES.get(name, b"HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\n\r\n"))
            return
    except OSError:
        pass
    finally:
        try:
            conn.shutdown(socket.SHUT_WR)
            time.sleep(0.05)
        except OSError:
            pass
        conn.close()


if __name__ == "__main__":
    serve_raw(handle, arguments(120))
