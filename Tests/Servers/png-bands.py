#!/usr/bin/env python3
"""Counts the horizontal bands of given colours in a PNG screenshot (the HTML report test's eyes).

    Tests/Servers/png-bands.py FILE.png RRGGBB [RRGGBB…]   # prints {"RRGGBB": bands, …} as JSON

A band is a run of consecutive pixel rows in which at least 4 pixels have that colour (each channel
within 6 of it). The report's result cells are solid blocks separated by a border, so each visible
row of a status is one band of its colour. 8-bit RGB/RGBA PNGs, non-interlaced (what Chromium writes).
"""
import json
import struct
import sys
import zlib


def pixels(path):
    data = open(path, "rb").read()
    if data[:8] != b"\x89PNG\r\n\x1a\n":
        sys.exit(f"{path}: not a PNG")
    pos, idat, width = 8, b"", 0
    while pos < len(data):
        length, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + length]
        if kind == b"IHDR":
            width, height, depth, ctype, _, _, interlace = struct.unpack(">IIBBBBB", body)
            if depth != 8 or ctype not in (2, 6) or interlace:
                sys.exit(f"{path}: only 8-bit RGB/RGBA, non-interlaced PNGs (got depth {depth}, type {ctype})")
            bpp = 3 if ctype == 2 else 4
        elif kind == b"IDAT":
            idat += body
        pos += 12 + length
    raw = zlib.decompress(idat)
    stride = width * bpp
    rows, prev, i = [], bytearray(stride), 0
    for _ in range(height):
        f, line = raw[i], bytearray(raw[i + 1:i + 1 + stride])
        i += 1 + stride
        for x in range(stride):
            a = line[x - bpp] if x >= bpp else 0
            b = prev[x]
            c = prev[x - bpp] if x >= bpp else 0
            if f == 1: line[x] = (line[x] + a) & 255
            elif f == 2: line[x] = (line[x] + b) & 255
            elif f == 3: line[x] = (line[x] + (a + b) // 2) & 255
            elif f == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[x] = (line[x] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        rows.append([tuple(line[x:x + 3]) for x in range(0, stride, bpp)])
        prev = line
    return rows


def main():
    rows = pixels(sys.argv[1])
    result = {}
    for hexa in sys.argv[2:]:
        want = tuple(int(hexa[k:k + 2], 16) for k in (0, 2, 4))
        bands, inside = 0, False
        for row in rows:
            hit = sum(1 for px in row if all(abs(px[k] - want[k]) <= 6 for k in range(3))) >= 4
            if hit and not inside:
                bands += 1
            inside = hit
        result[hexa] = bands
    print(json.dumps(result))


if __name__ == "__main__":
    main()
