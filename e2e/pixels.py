#!/usr/bin/env python3
"""Pixels of PNG (8-bit RGB/RGBA, as libpng writes for photokiosk's PNGEncoder) and PPM files,
and how two pictures differ: the count of pixels whose largest channel difference is over a
threshold, the largest difference, where. Python's zlib only (no imaging library on the host).

  pixels.py compare A B [--max-fraction F] [--threshold T]   prints the figures; exit 1 if more
      than F of the pixels differ by more than T in some channel (defaults: 0, 0: identical)
  pixels.py ppm IN.png OUT.ppm                               converts
  pixels.py perturb IN OUT.ppm --every N --delta D           a copy with every Nth pixel's
      channels moved by D (towards the middle, so nothing clips): tests a tolerance"""
import struct, sys, zlib


def read_png(path):
    data = open(path, 'rb').read()
    if data[:8] != b'\x89PNG\r\n\x1a\n': raise ValueError(f'{path}: not a PNG')
    pos, idat, width = 8, [], None
    while pos < len(data):
        length, kind = struct.unpack('>I4s', data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + length]
        if kind == b'IHDR':
            width, height, depth, colour, _, _, interlace = struct.unpack('>IIBBBBB', body)
            if depth != 8 or colour not in (2, 6) or interlace: raise ValueError(f'{path}: not 8-bit RGB(A)')
            bpp = 3 if colour == 2 else 4
        elif kind == b'IDAT': idat.append(body)
        elif kind == b'IEND': break
        pos += 12 + length
    raw = zlib.decompress(b''.join(idat))
    stride = width * bpp
    out = bytearray(height * stride)
    prev = bytearray(stride)
    for y in range(height):
        f = raw[y * (stride + 1)]
        line = bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        if f == 1:
            for i in range(bpp, stride): line[i] = (line[i] + line[i - bpp]) & 255
        elif f == 2:
            line = bytearray((a + b) & 255 for a, b in zip(line, prev))
        elif f == 3:
            for i in range(stride):
                left = line[i - bpp] if i >= bpp else 0
                line[i] = (line[i] + ((left + prev[i]) >> 1)) & 255
        elif f == 4:
            for i in range(stride):
                a = line[i - bpp] if i >= bpp else 0
                b = prev[i]; c = prev[i - bpp] if i >= bpp else 0
                p = a + b - c; pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[i] = (line[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        out[y * stride:(y + 1) * stride] = line
        prev = line
    if bpp == 4:
        out = bytearray(b for i in range(0, len(out), 4) for b in out[i:i + 3])
    return width, height, bytes(out)


def read_ppm(path):
    data = open(path, 'rb').read()
    parts, pos = [], 0
    while len(parts) < 4:                    # P6 W H MAX, whitespace separated
        while data[pos:pos + 1].isspace(): pos += 1
        start = pos
        while not data[pos:pos + 1].isspace(): pos += 1
        parts.append(data[start:pos])
    return int(parts[1]), int(parts[2]), data[pos + 1:]


def read(path):
    return read_png(path) if open(path, 'rb').read(4) == b'\x89PNG' else read_ppm(path)


def write_ppm(img, path):
    w, h, px = img
    with open(path, 'wb') as f: f.write(b'P6\n%d %d\n255\n' % (w, h) + px)


def write_png(img, path):
    """RGB, 8 bits, no filter: a screen the guest composed (the plane stage), for people to look at."""
    w, h, px = img
    chunk = lambda kind, data: struct.pack('>I', len(data)) + kind + data + struct.pack('>I', zlib.crc32(kind + data))
    rows = b''.join(b'\0' + px[y * w * 3:(y + 1) * w * 3] for y in range(h))
    with open(path, 'wb') as f:
        f.write(b'\x89PNG\r\n\x1a\n' + chunk(b'IHDR', struct.pack('>IIBBBBB', w, h, 8, 2, 0, 0, 0))
                + chunk(b'IDAT', zlib.compress(rows, 6)) + chunk(b'IEND', b''))


def compare(a, b, threshold=0):
    """(pixels differing by more than threshold, total pixels, largest channel difference, first (x, y))."""
    (wa, ha, pa), (wb, hb, pb) = a, b
    if (wa, ha) != (wb, hb): return wa * ha, wa * ha, 255, None
    differing, largest, first = 0, 0, None
    if pa == pb: return 0, wa * ha, 0, None
    for i in range(0, len(pa), 3):
        if pa[i:i + 3] == pb[i:i + 3]: continue
        d = max(abs(pa[i] - pb[i]), abs(pa[i + 1] - pb[i + 1]), abs(pa[i + 2] - pb[i + 2]))
        largest = max(largest, d)
        if d > threshold:
            differing += 1
            if first is None: first = (i // 3 % wa, i // 3 // wa)
    return differing, wa * ha, largest, first


def perturb(img, every, delta):
    """A copy with the channels of every `every`th pixel moved by `delta` levels (down where the
    value is over 127, up otherwise: exactly `delta`, never clipped)."""
    w, h, px = img
    out = bytearray(px)
    for p in range(0, w * h, every):
        for i in range(3 * p, 3 * p + 3):
            out[i] = out[i] - delta if out[i] > 127 else out[i] + delta
    return w, h, bytes(out)


def main(argv):
    if argv[:1] == ['ppm']:
        write_ppm(read(argv[1]), argv[2]); return 0
    if argv[:1] == ['perturb']:
        rest = argv[3:]
        every, delta = int(rest[rest.index('--every') + 1]), int(rest[rest.index('--delta') + 1])
        write_ppm(perturb(read(argv[1]), every, delta), argv[2]); return 0
    if argv[:1] != ['compare']: print(__doc__); return 64
    a, b, rest = argv[1], argv[2], argv[3:]
    fraction = float(rest[rest.index('--max-fraction') + 1]) if '--max-fraction' in rest else 0.0
    threshold = int(rest[rest.index('--threshold') + 1]) if '--threshold' in rest else 0
    differing, total, largest, first = compare(read(a), read(b), threshold)
    ok = differing <= fraction * total
    print(f'{differing} of {total} pixels differ by more than {threshold} ({differing / total:.4%}), '
          f'largest channel difference {largest}{f", first at {first}" if first else ""} -> {"OK" if ok else "DIFFERENT"}')
    return 0 if ok else 1


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
