#!/usr/bin/env python3
"""Hostile clients of `apicli mock` for its tests and its soak bench. Loopback only, bounded.

    hostile-client.py idle PORT N SECONDS      hold N connections open, sending nothing; print how many
                                               the server closed before SECONDS were up ("connected N"
                                               goes to stderr once they are all open)
    hostile-client.py slow PORT SECONDS        trickle a request's headers one byte a second; print
                                               "closed after S" when the server closes it
    hostile-client.py raw PORT BYTES           send BYTES (Python escapes), print the answer's status
                                               line and whether the server then closed the connection
    hostile-client.py pipeline PORT PATH SECONDS [MAX]   pipeline GETs of PATH (at most MAX) for
                                               SECONDS as fast as the server takes them, never reading
                                               an answer; print "sent N closed yes|no"
    hostile-client.py wshold PORT PATH SECONDS upgrade PATH to a WebSocket and never read, for at
                                               most SECONDS; print "closed yes|no" (the server closed it)
"""
import socket
import sys
import time


def connect(port):
    s = socket.create_connection(("127.0.0.1", int(port)), timeout=10)
    return s


def idle(port, n, seconds):
    held = []
    for _ in range(int(n)):
        try:
            held.append(connect(port))
        except OSError:
            break
    print("connected %d" % len(held), file=sys.stderr, flush=True)  # for a test to wait for
    end = time.time() + float(seconds)
    closed = 0
    for s in held:
        s.settimeout(max(0.01, end - time.time()))
        try:
            if s.recv(1) == b"":
                closed += 1
        except (socket.timeout, TimeoutError):
            pass
        except OSError:
            closed += 1
    print("held %d closed %d" % (len(held), closed), flush=True)


def slow(port, seconds):
    s = connect(port)
    request = b"GET /slow HTTP/1.1\r\nHost: x\r\nX-Pad: " + b"a" * 1000
    start = time.time()
    for b in request:
        try:
            s.sendall(bytes([b]))
            s.settimeout(1.0)
            if s.recv(1) == b"":
                break
        except (socket.timeout, TimeoutError):
            pass
        except OSError:
            break
        if time.time() - start > float(seconds):
            print("still open after %d" % int(float(seconds)), flush=True)
            return
    print("closed after %d" % int(time.time() - start), flush=True)


def raw(port, data):
    s = connect(port)
    s.sendall(data.encode("latin-1").decode("unicode_escape").encode("latin-1"))
    s.settimeout(5)
    answer = b""
    closed = False
    try:
        while True:
            chunk = s.recv(65536)
            if not chunk:
                closed = True
                break
            answer += chunk
    except (socket.timeout, TimeoutError):
        pass
    line = answer.split(b"\r\n", 1)[0].decode("latin-1")
    print("%s|%s" % (line, "closed" if closed else "open"), flush=True)


def pipeline(port, path, seconds, most=None):
    s = connect(port)
    s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)  # answers pile up on the server's side
    one = ("GET %s HTTP/1.1\r\nHost: x\r\n\r\n" % path).encode()
    data = one * (int(most) if most else 64)
    end = time.time() + float(seconds)
    sent = 0
    closed = False
    while time.time() < end:
        s.settimeout(max(0.01, min(0.2, end - time.time())))
        try:
            if most and sent >= len(data):
                s.send(b"\r\n")  # a blank line between requests, ignored: it only fails once closed
                time.sleep(0.2)
                continue
            sent += s.send(data[sent % len(data):] if most else data)
        except (socket.timeout, TimeoutError):
            continue
        except OSError:
            closed = True
            break
    print("sent %d closed %s" % (sent // len(one), "yes" if closed else "no"), flush=True)


def wshold(port, path, seconds):
    s = connect(port)
    s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    s.sendall(("GET %s HTTP/1.1\r\nHost: x\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
               "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n" % path).encode())
    ping = bytes([0x89, 0x80, 0, 0, 0, 0])  # empty, masked: only to see a close
    end = time.time() + float(seconds)
    closed = False
    while time.time() < end and not closed:
        time.sleep(0.2)
        try:
            s.settimeout(1)
            s.send(ping)
        except (socket.timeout, TimeoutError):
            pass
        except OSError:
            closed = True
    print("closed %s" % ("yes" if closed else "no"), flush=True)


if __name__ == "__main__":
    kind = sys.argv[1]
    {"idle": lambda: idle(*sys.argv[2:5]), "slow": lambda: slow(*sys.argv[2:4]), "raw": lambda: raw(*sys.argv[2:4]),
     "pipeline": lambda: pipeline(*sys.argv[2:6]), "wshold": lambda: wshold(*sys.argv[2:5])}[kind]()
