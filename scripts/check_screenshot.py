#!/usr/bin/env python3
"""Fails unless a PNG shows terrain: not one flat color, with sky (or clouds) and ground both present.

Pure standard library (a small PNG decoder), so CI needs nothing but Python.
usage: check_screenshot.py FILE.png [...]
"""
import struct
from collections import Counter
import sys
import zlib


def decode(path):
    """(width, height, rows of (r, g, b) tuples) of an 8-bit RGB or RGBA, non-interlaced PNG."""
    data = open(path, "rb").read()
    if data[:8] != b"\x89PNG\r\n\x1a\n":
        raise ValueError("not a PNG")
    pos, idat, header = 8, b"", None
    while pos < len(data):
        length, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + length]
        if kind == b"IHDR":
            header = struct.unpack(">IIBBBBB", body)
        elif kind == b"IDAT":
            idat += body
        pos += 12 + length
    width, height, depth, color, _, _, interlace = header
    channels = {2: 3, 6: 4}.get(color)
    if depth != 8 or channels is None or interlace:
        raise ValueError(f"unsupported PNG (depth {depth}, color type {color}, interlace {interlace})")
    raw = zlib.decompress(idat)
    stride = width * channels
    rows, previous = [], bytearray(stride)
    for y in range(height):
        kind = raw[y * (stride + 1)]
        line = bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        for i in range(stride):
            a = line[i - channels] if i >= channels else 0
            b = previous[i]
            c = previous[i - channels] if i >= channels else 0
            if kind == 1:
                line[i] = (line[i] + a) & 255
            elif kind == 2:
                line[i] = (line[i] + b) & 255
            elif kind == 3:
                line[i] = (line[i] + (a + b) // 2) & 255
            elif kind == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[i] = (line[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        rows.append([tuple(line[x * channels:x * channels + 3]) for x in range(width)])
        previous = line
    return width, height, rows


def check(path):
    width, height, rows = decode(path)
    pixels = [p for row in rows[::2] for p in row[::2]]
    n = len(pixels)
    lum = [0.2126 * r + 0.7152 * g + 0.0722 * b for r, g, b in pixels]
    mean = sum(lum) / n
    spread = (sum((l - mean) ** 2 for l in lum) / n) ** 0.5
    colors = len({(r >> 3, g >> 3, b >> 3) for r, g, b in pixels})
    # Sky is the commonest sky-blue color of the picture's top quarter, when it covers a fifth
    # of the quarter at least, and whatever is within a few levels of it; everything else (hazy
    # hills and lakes included) is ground. A camera facing a hillside has no such color up there
    # (a lake in the corner is not enough), so no sky.
    # Clouds are sky too: the bright, nearly grey pixels of the picture's top half, when sky-blue
    # and cloud together cover a fifth of the top quarter.
    # Sky-blue by day; the warm haze of a sunset.
    blue = lambda p: (p[2] > 110 and p[2] > p[0] + 25 and p[2] >= p[1]) or (
        p[0] > 140 and p[0] >= p[1] >= p[2] and p[0] > p[2] + 40)
    cloud = lambda p: max(p) - min(p) < 24 and 0.2126 * p[0] + 0.7152 * p[1] + 0.0722 * p[2] > 110
    upper = [p for row in rows[:height // 4:2] for p in row[::2]]
    top_half = [p for row in rows[:height // 2:2] for p in row[::2]]
    blues = Counter(p for p in upper if blue(p))
    sky = 0.0
    near = lambda p: False
    if blues:
        top = blues.most_common(1)[0][0]
        near = lambda p: max(abs(a - b) for a, b in zip(p, top)) <= 6
    if sum(1 for p in upper if near(p) or cloud(p)) >= len(upper) / 5:
        sky = (sum(1 for p in pixels if near(p)) + sum(1 for p in top_half if cloud(p) and not near(p))) / n
    ground = 1.0 - sky
    report = (f"{path}: {width}x{height}, luminance spread {spread:.1f}, {colors} colors, "
              f"sky {sky:.0%}, ground {ground:.0%}")
    ok = spread > 10 and colors > 40 and sky > 0.03 and ground > 0.10
    print(("ok   " if ok else "FAIL ") + report)
    return ok


if __name__ == "__main__":
    results = [check(p) for p in sys.argv[1:]]
    sys.exit(0 if results and all(results) else 1)
