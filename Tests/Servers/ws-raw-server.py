#!/usr/bin/env python3
"""A raw-socket WebSocket server (RFC 6455 by hand, no library) that sends what a library would
refuse to, for apicli's protocol-error tests. Loopback only, bounded lifetime. Prints its URL.

After the opening handshake (any path; no extension agreed), by path (`/late/PATH`: "hi" first,
then PATH's frames 200 ms later):

  /ok              "hi", then a close frame 1000 (control case)
  /huge            a binary frame header announcing 2^62 bytes, then 16 bytes of it, then silence
  /fragmented-ping a ping frame without FIN (RFC 6455 §5.5: control frames are never fragmented)
  /reserved        a text frame with RSV1 set, none agreed (§5.2)
  /opcode          a frame with the reserved opcode 0x3 (§5.2)
  /count/N         N text messages "m" + its number, then a close frame 1000
  /close-bad       a close frame with the code 999, which no endpoint may send (§7.4)
  /drop            nothing: the connection is closed without a close frame (§7.1.5)

After what a path sends, the server reads (and drops) what the client sends until it closes, at
most 10 s.
"""
import base64
import hashlib
import socket
import struct
import time

from serve import arguments, serve_raw

GUID = b"258EAFA5-E914-47DA-95CA-C5AB0DC85B11"


def frame(opcode, payload=b"", fin=True, rsv=0):
    first = (0x80 if fin else 0) | (rsv << 4) | opcode
    n = len(payload)
    if n < 126:
        head = bytes([first, n])
    elif n < 65536:
        head = bytes([first, 126]) + struct.pack(">H", n)
    else:
        head = bytes([first, 127]) + struct.pack(">Q", n)
    return head + payload


def handshake(conn):
    """Reads the request head; answers 101; returns the path."""
    data = b""
    while b"\r\n\r\n" not in data:
        chunk = conn.recv(4096)
        if not chunk:
            raise ConnectionError("closed")
        data += chunk
    lines = data.split(b"\r\n\r\n", 1)[0].decode("latin-1").split("\r\n")
    path = lines[0].split(" ")[1]
    headers = {k.strip().lower(): v.strip() for k, v in (line.split(":", 1) for line in lines[1:] if ":" in line)}
    accept = base64.b64encode(hashlib.sha1(headers["sec-websocket-key"].encode() + GUID).digest()).decode()
    conn.sendall(("HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                  "Sec-WebSocket-Accept: %s\r\n\r\n" % accept).encode())
    return path


def handle(conn):
    try:
        conn.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        path = handshake(conn)
        if path.startswith("/late/"):
            conn.sendall(frame(0x1, b"hi"))
            time.sleep(0.2)
            path = path[len("/late"):]
        if path == "/ok":
            conn.sendall(frame(0x1, b"hi") + frame(0x8, struct.pack(">H", 1000)))
        elif path == "/huge":
            conn.sendall(bytes([0x82, 127]) + struct.pack(">Q", 1 << 62) + b"x" * 16)
        elif path == "/fragmented-ping":
            conn.sendall(frame(0x9, b"ping", fin=False))
        elif path == "/reserved":
            conn.sendall(frame(0x1, b"rsv", rsv=4))
        elif path == "/opcode":
            conn.sendall(frame(0x3, b"what"))
        elif path == "/close-bad":
            conn.sendall(frame(0x8, struct.pack(">H", 999)))
        elif path == "/drop":
            return
        elif path.startswith("/count/"):
            n = int(path[len("/count/"):])
            conn.sendall(b"".join(frame(0x1, b"m%d" % i) for i in range(1, n + 1)) + frame(0x8, struct.pack(">H", 1000)))
        conn.settimeout(10)
        end = time.time() + 10
        while time.time() < end and conn.recv(65536):
            pass
    except (OSError, ValueError, KeyError, IndexError):
        pass
    finally:
        conn.close()


def main():
    args = arguments(60)
    serve_raw(handle, args)

if __name__ == "__main__":
    main()
