#!/usr/bin/env python3
"""Photos for the `smallboard` e2e stage, generated so the test needs nothing else: the sizes a
picture frame meets (5120x2880 progressive wallpapers, a 5640x3172 q100 one, a 50-megapixel
baseline camera photo, ordinary and portrait ones). Each has a flat patch of its own colour in
the middle third, so the host can tell from a screendump which photo the screen shows (page N
of the album shows photo N: its colour at the screen's centre), around it diagonal gradients and
stripes for realistic entropy. Encoded with libjpeg-turbo's cjpeg from a PPM on its stdin.

Usage: smallboard-photos.py OUTDIR   writes OUTDIR/photos/NN-WxH-kind.jpg and OUTDIR/expect.json
(the harness's rules: stage name -> rules)."""
import json, math, os, subprocess, sys

# (width, height, progressive, quality, centre colour), in the album's (name) order.
PHOTOS = [
    (2560, 1600, False, 90, (220, 40, 40)),
    (5120, 2880, True, 90, (40, 190, 60)),
    (8660, 5776, False, 90, (40, 70, 220)),     # 50.0 megapixels, baseline
    (1622, 2880, False, 90, (230, 210, 40)),    # portrait
    (5120, 2880, True, 90, (210, 40, 200)),
    (5640, 3172, True, 100, (40, 200, 210)),    # q100, like the 16 MB wallpaper
    (2560, 1600, True, 90, (240, 130, 30)),
    (5120, 2880, True, 90, (235, 235, 235)),
    (3840, 2160, False, 90, (120, 40, 200)),
    (5120, 2880, True, 90, (150, 220, 40)),     # the last page: zoomed to 1:1
]

def ppm(width, height, seed, patch):
    """Rows of a width x height RGB picture as bytes, built by slicing one long pattern row."""
    span = width + height
    base = bytearray(3 * span)
    for x in range(span):
        base[3 * x] = (x * 255 // span + seed * 37) & 255
        base[3 * x + 1] = int(128 + 90 * math.sin(x / (23.0 + seed))) & 255
        base[3 * x + 2] = int(128 + 60 * math.sin(x / 9.0) * math.sin(x / (61.0 + seed))) & 255
    base = bytes(base)
    x0, x1, y0, y1 = width // 3, width - width // 3, height // 3, height - height // 3
    flat = bytes(patch) * (x1 - x0)
    yield b'P6\n%d %d\n255\n' % (width, height)
    for y in range(height):
        offset = 3 * ((y * (seed + 1)) % height)
        row = base[offset:offset + 3 * width]
        if y0 <= y < y1:
            row = row[:3 * x0] + flat + row[3 * x1:]
        yield row

def main():
    out = sys.argv[1]
    os.makedirs(out + '/photos', exist_ok=True)
    for i, (w, h, progressive, quality, colour) in enumerate(PHOTOS):
        path = f'{out}/photos/{i:02d}-{w}x{h}-{"progressive" if progressive else "baseline"}-q{quality}.jpg'
        if os.path.exists(path):
            continue
        args = ['cjpeg', '-quality', str(quality), '-outfile', path + '.tmp']
        if progressive:
            args += ['-progressive', '-sample', '1x1']
        p = subprocess.Popen(args, stdin=subprocess.PIPE)
        for chunk in ppm(w, h, i, colour):
            p.stdin.write(chunk)
        p.stdin.close()
        if p.wait() != 0:
            sys.exit(f'cjpeg failed for {path}')
        os.rename(path + '.tmp', path)
    near = lambda colour: ['near', [0.5, 0.5], list(colour)]
    expect = {'sb_grid': ['busy', 'stable']}
    for i, (_, _, _, _, colour) in enumerate(PHOTOS):
        expect[f'sb_page_{i}'] = (['changed'] if i else []) + [near(colour), 'stable']
    # At 1:1 the last photo's patch (the middle third of 5120 px) spans 1706 of the 1920 screen
    # pixels: its colour reaches 10 % from either edge; at fit or 2x it does not.
    zoomed = PHOTOS[-1][4]
    expect['sb_zoom'] = ['changed', near(zoomed), ['near', [0.1, 0.5], list(zoomed)], ['near', [0.9, 0.5], list(zoomed)], 'stable']
    with open(out + '/expect.json', 'w') as f:
        json.dump(expect, f, indent=1)

if __name__ == '__main__':
    main()
