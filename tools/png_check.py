#!/usr/bin/env python3
"""Reads 8-bit indexed PNGs with Python's own zlib, independently of the `png` crate (issue 42).

For each file: the signature, every chunk's CRC-32, IHDR, one PLTE, the IDAT stream inflated by zlib
(which checks its Adler-32), each row's filter undone (None, Sub, Up, Average, Paeth). Prints the
picture's size and a digest of its palette colours per pixel; two files that draw the same picture print
the same digest, whatever their compressed bytes.

    python3 tools/png_check.py a.png b.png ...
"""
import hashlib
import struct
import sys
import zlib


def read(path):
    data = open(path, "rb").read()
    if data[:8] != b"\x89PNG\r\n\x1a\n":
        raise ValueError("not a PNG signature")
    pos, chunks = 8, []
    while pos < len(data):
        (length,) = struct.unpack(">I", data[pos:pos + 4])
        kind = data[pos + 4:pos + 8]
        body = data[pos + 8:pos + 8 + length]
        (crc,) = struct.unpack(">I", data[pos + 8 + length:pos + 12 + length])
        if zlib.crc32(kind + body) & 0xFFFFFFFF != crc:
            raise ValueError(f"bad CRC in {kind!r}")
        chunks.append((kind, body))
        pos += 12 + length
    if chunks[0][0] != b"IHDR" or chunks[-1][0] != b"IEND":
        raise ValueError("IHDR first and IEND last")
    width, height, depth, colour, comp, filt, interlace = struct.unpack(">IIBBBBB", chunks[0][1])
    if (depth, colour, comp, filt, interlace) != (8, 3, 0, 0, 0):
        raise ValueError("not 8-bit indexed, non-interlaced")
    palette = b"".join(body for kind, body in chunks if kind == b"PLTE")
    raw = zlib.decompress(b"".join(body for kind, body in chunks if kind == b"IDAT"))
    if len(raw) != height * (width + 1):
        raise ValueError(f"{len(raw)} bytes inflated, {height * (width + 1)} expected")
    rows, above = [], bytearray(width)
    for y in range(height):
        kind, line = raw[y * (width + 1)], bytearray(raw[y * (width + 1) + 1:(y + 1) * (width + 1)])
        for x in range(width):
            a = line[x - 1] if x else 0
            b = above[x]
            c = above[x - 1] if x else 0
            if kind == 0:
                p = 0
            elif kind == 1:
                p = a
            elif kind == 2:
                p = b
            elif kind == 3:
                p = (a + b) // 2
            elif kind == 4:
                q = a + b - c
                pa, pb, pc = abs(q - a), abs(q - b), abs(q - c)
                p = a if pa <= pb and pa <= pc else (b if pb <= pc else c)
            else:
                raise ValueError(f"filter type {kind} in row {y}")
            line[x] = (line[x] + p) & 0xFF
        rows.append(bytes(line))
        above = line
    digest = hashlib.sha256()
    for line in rows:
        for i in line:
            if 3 * i + 3 > len(palette):
                raise ValueError("an index past the palette")
            digest.update(palette[3 * i:3 * i + 3])
    return width, height, len(data), digest.hexdigest()[:16]


if __name__ == "__main__":
    failed = False
    for path in sys.argv[1:]:
        try:
            w, h, n, d = read(path)
            print(f"{path}: {w}x{h}, {n} bytes, colours {d}")
        except ValueError as e:
            failed = True
            print(f"{path}: INVALID: {e}")
    sys.exit(1 if failed else 0)
