#!/usr/bin/env python3
"""Photos for the e2e stages that walk the photo grid (app, seat, blank, faults, calib, unit), and
where their taps go, so those stages depend neither on how many sample photos the project bundles
nor on guessed pixel positions.

The photos: GRID_PHOTOS small JPEGs (photo-01.jpg …), each with a flat patch of its own colour in
its middle third (cjpeg from a PPM on stdin), so a screendump tells which photo a cell or the
album shows. 48 of them fill 6 rows of the landscape grid (5 on screen: a swipe scrolls by one
row) and 10 of the portrait one.

The layout: the app's grid rule (Widgets GridLayout, ChromeMetrics) restated here, for a QEMU
screen (no physical size worth using: QEMU's EDID says 100 dpi, so the scale is the short side
over 720). At 1280x800: 8 columns x 5 rows of 149.9 px cells, 9 px column gaps, 8.44 px row gaps;
portrait 800x1280: 5 x 8 of 149.2 px. If the app's rule changes, the host's pixel checks of the
gaps and the cells' colours fail first and say where.

Usage: grid-photos.py OUTDIR   writes OUTDIR/photos/photo-NN.jpg (kept between runs),
OUTDIR/grid.env (the drivers' tap points in uitouch's device units, sourced in the guest) and
OUTDIR/expect.json (the harness's extra rules per stage)."""
import colorsys, json, math, os, subprocess, sys

GRID_PHOTOS = 48
PHOTO_SIZE = (800, 500)
THUMBNAIL_POINTS = 140      # library.thumbnail_size's default
SPACING_POINTS = 8          # ThumbnailGridView's gap (KioskApp.applyGridMetrics)
PANEL = (1280, 800)         # the display devices' preferred mode
DEVICE_UNITS = 4096         # uitouch's axes: 0 … 4095 across the panel
GRID_BG = [0x11, 0x11, 0x14]

def colour(i):
    """Photo i's (0-based) patch colour: hues a golden angle apart, bright, never the grid's gaps."""
    r, g, b = colorsys.hsv_to_rgb((i * 0.618034) % 1.0, 0.8, 0.95)
    return [int(r * 255), int(g * 255), int(b * 255)]

def name(i):
    return f'photo-{i + 1:02d}.jpg'

def ppm(i):
    w, h = PHOTO_SIZE
    yield b'P6\n%d %d\n255\n' % (w, h)
    patch = bytes(colour(i))
    x0, x1, y0, y1 = w // 3, w - w // 3, h // 3, h - h // 3
    for y in range(h):
        row = bytearray()
        for x in range(w):
            if x0 <= x < x1 and y0 <= y < y1: row += patch
            else: row += bytes(((x + i * 40) & 255, (y * 2) & 255, ((x ^ y) + i * 16) & 255))
        yield bytes(row)

def rounded(x):
    """Swift's rounded(): halves away from zero."""
    return math.floor(x + 0.5)

class Grid:
    """GridLayout(width:height:itemCount:preferredCellSize:spacing:) with ChromeMetrics' scale."""
    def __init__(self, width, height, count):
        scale = min(4.0, max(0.75, min(width, height) / 720))
        s = max(2, rounded(SPACING_POINTS * scale))
        preferred = THUMBNAIL_POINTS * scale
        best = None
        most = max(1, math.floor((width - s) / (preferred * 0.5 + s)))
        for columns in range(1, most + 1):
            cell = (width - s * (columns + 1)) / columns
            if cell < 1 or cell > height - s: continue
            fit = (height - s) / (cell + s)
            for rows in sorted({math.floor(fit), math.ceil(fit)}):
                if rows < 1: continue
                gap = (height - rows * cell) / (rows + 1)
                if gap < max(1, s * 0.5) or gap > max(s * 2.5, 2): continue
                cost = abs(math.log(cell / preferred)) + 0.15 * abs(gap - s) / max(s, 1)
                if best is None or cost < best[0]: best = (cost, columns, cell, gap)
        if best is None: sys.exit(f'no whole-row grid layout for {width}x{height}')
        _, self.columns, self.cell, self.row_gap = best
        self.width, self.height, self.count, self.spacing = width, height, count, s
        self.rows = (count + self.columns - 1) // self.columns
        self.pitch = self.cell + self.row_gap
        self.max_scroll = max(0.0, self.rows * self.pitch + self.row_gap - height)

    def left(self, column): return self.spacing + column * (self.cell + self.spacing)
    def top(self, row, scroll=0.0): return self.row_gap + row * self.pitch - scroll
    def centre(self, index, scroll=0.0):
        row, column = divmod(index, self.columns)
        return (self.left(column) + self.cell / 2, self.top(row, scroll) + self.cell / 2)
    def column_gap(self, column, row=0):   # between `column` and the next, level with row's centre
        return (self.left(column) + self.cell + self.spacing / 2, self.top(row) + self.cell / 2)
    def row_gap_below(self, row, column=0):
        return (self.left(column) + self.cell / 2, self.top(row) + self.cell + self.row_gap / 2)

W, H = PANEL
def panel_from(rotation, point):
    """A logical point of a screen turned by `rotation` (clockwise) onto the landscape panel."""
    x, y = point
    return {0: (x, y), 90: (W - y, x), 180: (W - x, H - y), 270: (y, H - x)}[rotation]

def device(point):
    """Panel pixels to uitouch's device units, "X Y" for the drivers."""
    return f'{rounded(point[0] * DEVICE_UNITS / W)} {rounded(point[1] * DEVICE_UNITS / H)}'

def at(point):
    """Panel pixels to the harness's fractions of the screen (the pixel the point is in)."""
    return [(math.floor(point[0]) + 0.5) / W, (math.floor(point[1]) + 0.5) / H]

def near(point, index): return ['near', at(point), colour(index)]
def gap(point): return [at(point), GRID_BG]

def main():
    out = sys.argv[1]
    os.makedirs(out + '/photos', exist_ok=True)
    for i in range(GRID_PHOTOS):
        path = f'{out}/photos/{name(i)}'
        if os.path.exists(path): continue
        p = subprocess.Popen(['cjpeg', '-quality', '90', '-outfile', path + '.tmp'], stdin=subprocess.PIPE)
        for chunk in ppm(i): p.stdin.write(chunk)
        p.stdin.close()
        if p.wait() != 0: sys.exit(f'cjpeg failed for {path}')
        os.rename(path + '.tmp', path)

    land, port = Grid(W, H, GRID_PHOTOS), Grid(H, W, GRID_PHOTOS)
    on_screen = (H // int(land.pitch)) * land.columns            # whole rows at rest
    assert land.max_scroll > 0 and port.max_scroll > 0, 'too few photos to scroll'
    # The landscape grid at rest: a column gap and a row gap where the rule puts them, the first
    # and the last whole cell on screen showing their photos (so: that many columns and rows).
    def landscape(scroll_rows=0):
        first = scroll_rows * land.columns
        return [gap(land.column_gap(0)), gap(land.row_gap_below(0)), gap(land.column_gap(land.columns - 2, 4)),
                near(land.centre(0), first), near(land.centre(on_screen - 1), first + on_screen - 1)]

    # Taps. Unscrolled: TILE, row 2 column 2 (no corner: a held finger there is no info screen).
    tile = land.centre(2 * land.columns + 2)
    # After a swipe up, scrolled to the end (one row): the cell at row 3 column 3 of the screen.
    scrolled_index = (3 + round(land.max_scroll / land.pitch)) * land.columns + 3
    scrolled = land.centre(scrolled_index, land.max_scroll)
    # calib: P, the centre of row 2 column 0; a calibration of x + 0.25 moves it a quarter of
    # the width (2.01 cells) to the right, into column 2 (Q).
    p = land.centre(2 * land.columns)
    q = (p[0] + W / 4, p[1])
    index_at = lambda g, point: next(i for i in range(g.count) if g.left(i % g.columns) <= point[0] < g.left(i % g.columns) + g.cell
                                     and g.top(i // g.columns) <= point[1] < g.top(i // g.columns) + g.cell)
    p_index, q_index = index_at(land, p), index_at(land, q)
    # rotation 180 with that calibration: calibrated on the panel (→ Q), then turned.
    rot180_index = index_at(land, panel_from(180, q))
    # rotation 90 / 270: logical cells of the portrait grid, tapped at their panel positions.
    rot90_index, rot270_index = 1 * port.columns + 2, 5 * port.columns
    rot90_tap, rot270_tap = panel_from(90, port.centre(rot90_index)), panel_from(270, port.centre(rot270_index))
    port_on_screen = (W // int(port.pitch)) * port.columns
    portrait = [gap(panel_from(90, port.column_gap(0))), gap(panel_from(90, port.row_gap_below(0))),
                near(panel_from(90, port.centre(0)), 0), near(panel_from(90, port.centre(port_on_screen - 1)), port_on_screen - 1)]

    env = {'GRID_PHOTOS': GRID_PHOTOS, 'TILE': device(tile), 'TILE_PHOTO': 2 * land.columns + 3,
           'SCROLLED_TAP': device(scrolled), 'SCROLLED_PHOTO': scrolled_index + 1,
           'CALIB_P': device(p), 'CALIB_P_PHOTO': p_index + 1, 'CALIB_Q': device(q), 'CALIB_Q_PHOTO': q_index + 1,
           'ROT180_PHOTO': rot180_index + 1, 'ROT90_TAP': device(rot90_tap), 'ROT90_PHOTO': rot90_index + 1,
           'ROT270_TAP': device(rot270_tap), 'ROT270_PHOTO': rot270_index + 1}
    # The photos the calib taps tell apart must be different ones.
    assert len({p_index, q_index, rot180_index, index_at(land, panel_from(180, p))}) == 4
    with open(out + '/grid.env', 'w') as f:
        f.write(f'# written by e2e/grid-photos.py: landscape {land.columns}x{on_screen // land.columns} cells of '
                f'{land.cell:.1f} px, portrait {port.columns}x{port_on_screen // port.columns} of {port.cell:.1f} px\n')
        for k, v in env.items(): f.write(f'{k}="{v}"\n')

    photo = lambda index: near((W / 2, H / 2), index)   # the album shows the opened photo whole
    tile_index = 2 * land.columns + 2
    expect = {
        'app_start': landscape(), 'app_swipe': landscape(1), 'app_tap': [photo(scrolled_index)], 'app_back': landscape(1),
        'seat_start': landscape(), 'seat_back': landscape(), 'seat_touch': [photo(tile_index)],
        'blank_wake': landscape(),
        'faults_start': landscape(), 'faults_hotplug': [photo(tile_index)], 'faults_touch_back': [photo(tile_index)],
        'unit_start': landscape(), 'unit_swipe': landscape(1), 'unit_tap': [photo(scrolled_index)],
        'calib_grid': landscape(), 'calib_plain': [photo(p_index)], 'calib_target': [photo(q_index)],
        'calib_offset': [photo(q_index)],
        'rot90_grid': portrait, 'rot90_tap': [photo(rot90_index)],
        'rot180_tap': [photo(rot180_index)], 'rot270_tap': [photo(rot270_index)],
    }
    with open(out + '/expect.json', 'w') as f: json.dump(expect, f, indent=1)
    print(f'grid photos: {GRID_PHOTOS} in {out}/photos; ' + ' '.join(f'{k}={v}' for k, v in env.items()))

if __name__ == '__main__':
    main()
