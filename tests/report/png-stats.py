#!/usr/bin/env python3
"""Print what a PNG screenshot shows: its size, how many distinct
colours it has and the share of pixels that are not the background (the
most common colour).  A blank page has one colour and a share of 0.

usage: png-stats.py FILE.png
Reads 8-bit RGB or RGBA, non-interlaced PNG, as Chromium writes it,
with the standard library alone.
"""
import struct
import sys
import zlib
from collections import Counter


def paeth(a, b, c):
    p = a + b - c
    pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
    if pa <= pb and pa <= pc:
        return a
    return b if pb <= pc else c


def rows(path):
    data = open(path, "rb").read()
    if data[:8] != b"\x89PNG\r\n\x1a\n":
        raise SystemExit("%s: not a PNG file" % path)
    pos, idat, header = 8, b"", None
    while pos < len(data):
        length, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + length]
        if kind == b"IHDR":
            header = struct.unpack(">IIBBBBB", body)
        elif kind == b"IDAT":
            idat += body
        pos += 12 + length
    width, height, depth, colour, _, _, interlace = header
    if depth != 8 or colour not in (2, 6) or interlace:
        raise SystemExit("%s: not 8-bit RGB(A), non-interlaced" % path)
    bpp = 3 if colour == 2 else 4
    raw = zlib.decompress(idat)
    stride = width * bpp
    prev = bytearray(stride)
    for y in range(height):
        kind = raw[y * (stride + 1)]
        line = bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        for x in range(stride):
            a = line[x - bpp] if x >= bpp else 0
            b = prev[x]
            c = prev[x - bpp] if x >= bpp else 0
            if kind == 1:
                line[x] = (line[x] + a) & 255
            elif kind == 2:
                line[x] = (line[x] + b) & 255
            elif kind == 3:
                line[x] = (line[x] + (a + b) // 2) & 255
            elif kind == 4:
                line[x] = (line[x] + paeth(a, b, c)) & 255
        yield width, height, [bytes(line[i:i + 3])
                              for i in range(0, stride, bpp)]
        prev = line


def main():
    colours = Counter()
    width = height = 0
    for width, height, pixels in rows(sys.argv[1]):
        colours.update(pixels)
    total = width * height
    background = colours.most_common(1)[0][1]
    print("%d %d %d %.4f" % (width, height, len(colours),
                             (total - background) / total))


main()
