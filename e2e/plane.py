#!/usr/bin/env python3
"""The `plane` e2e stage's host side (issue 35: a playing clip's frames on an overlay plane where
the driver allows it). The guest (plane-driver.sh) plays the `video` stage's 1080p clip on vkms,
whose overlay plane QEMU cannot show, so its screens are composed in the guest by planeshot
(src/planeshot.c) from the planes' framebuffers and read by the harness from a second disk. The
pixels are checked with the video stage's own rules (video-clip.py's `clip` and `clip_moved`);
here are the rules on the planes themselves, from planeshot's "@@PLANES" line:

  overlay        an overlay plane is in use, on the clip's rectangle less at most BAR_ROWS rows at
                 its bottom (the progress bar stays on the primary plane), not scaled
  overlay_moved  new frames went on the plane since STAGE's shot: its FB_ID is not one value from
                 that shot to this one (planeshot watch samples it in between: with a pool of two
                 buffers the second shot may find the first one's FB_ID again)

  plane.py prepare VIDEO_DIR OUT_DIR   OUT_DIR/expect.json (the harness's rules for the stage's
                                       two shots) and OUT_DIR/plane.env (where the guest taps the
                                       clip's tile: grid-photos.py's layout rule, no guessed point)
"""
import importlib.util, json, os, re, sys

HERE = os.path.dirname(os.path.abspath(__file__))


def load(name, file):
    spec = importlib.util.spec_from_file_location(name, os.path.join(HERE, file))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


video = load('video_clip', 'video-clip.py')
CLIP = '99-clip-1080p30.mp4'
RECT_RE = r'(\d+)x(\d+)([+-]\d+)([+-]\d+)'


def parse(line):
    """planeshot's "@@PLANES crtc C mode WxH | primary plane P fb F FMT WxH at RECT src RECT |
    overlay plane O fb F FMT WxH at RECT src RECT | N attempt(s)" (or "overlay plane O off (fb 0)")
    as a dict; None where the line is not one."""
    parts = [p.strip() for p in line.split('|')]
    planes = {}
    for part in parts[1:3]:
        kind = part.split()[0]
        m = re.match(rf'{kind} plane (\d+) fb (\d+) (\S+) (\d+)x(\d+) at {RECT_RE} src {RECT_RE}$', part)
        if m:
            g = [int(v) if v.lstrip('+-').isdigit() else v for v in m.groups()]
            planes[kind] = {'id': g[0], 'fb': g[1], 'format': g[2], 'buffer': (g[3], g[4]),
                            'at': (g[7], g[8], g[5], g[6]), 'src': (g[11], g[12], g[9], g[10])}
        elif re.match(rf'{kind} plane (\d+) off', part):
            planes[kind] = None
        else:
            return None
    return planes


def rect_text(r): return f'{r[2]}x{r[3]}+{r[0]}+{r[1]}'


def overlay_problems(line):
    """What is wrong with the overlay plane in planeshot's summary line (empty: nothing)."""
    planes = parse(line or '')
    if planes is None: return [f'no planeshot summary line to check ({line!r})']
    overlay = planes.get('overlay')
    if overlay is None: return ['the kiosk did not use the overlay plane: it holds no framebuffer (FB_ID 0)']
    x, y, w, h = video.RECT
    ox, oy, ow, oh = overlay['at']
    bad = []
    if (ox, oy, ow) != (x, y, w) or not h - video.BAR_ROWS <= oh <= h:
        bad.append(f'the overlay plane is at {rect_text(overlay["at"])}, not the clip\'s rectangle {rect_text(video.RECT)} '
                   f'less at most its bottom {video.BAR_ROWS} rows (the progress bar)')
    if overlay['src'][2:] != (ow, oh):
        bad.append(f'the overlay plane scales: SRC {rect_text(overlay["src"])} onto {rect_text(overlay["at"])}')
    return bad


def moved_problems(before, between, after, stage):
    """What says no new frame went on the overlay plane from STAGE's shot to this one: the FB_IDs
    of its "@@PLANES" line (before), planeshot watch's "@@PLANE_FB_IDS" line (between) and this
    shot's (after)."""
    then, now = parse(before or ''), parse(after or '')
    if not (then and now and then.get('overlay') and now.get('overlay')):
        return [f'no overlay framebuffers to compare with {stage}\'s (the overlay plane was not in use in both shots)']
    watched = re.search(r'ms:([\d ]*)\(', between or '')
    ids = [then['overlay']['fb']] + [int(v) for v in (watched[1].split() if watched else [])] + [now['overlay']['fb']]
    if len(set(ids) - {0}) < 2:
        return [f'the overlay plane showed framebuffer {ids[0]} alone from {stage}\'s shot to this one '
                f'({"FB_IDs sampled between: " + watched[1].strip() if watched else "no FB_ID samples between the shots"}): '
                'no new frame went on the plane']
    return []


def prepare(video_dir, out):
    os.makedirs(out, exist_ok=True)
    json.dump({'plane_clip_a': [['clip', video_dir], ['overlay']],
               'plane_clip_b': [['clip_moved', video_dir, 'plane_clip_a'], ['overlay'], ['overlay_moved', 'plane_clip_a']]},
              open(out + '/expect.json', 'w'), indent=1)
    # the grid lists the folder by name; the clip's tile, in uitouch's device units
    names = sorted(os.listdir(video_dir + '/photos'))
    grid = load('grid_photos', 'grid-photos.py')
    cx, cy = grid.Grid(*video.SCREEN, len(names)).centre(names.index(CLIP))
    units = grid.DEVICE_UNITS
    with open(out + '/plane.env', 'w') as f:
        f.write(f'CLIP={CLIP}\nCLIP_TAP="{grid.rounded(cx * units / video.SCREEN[0])} {grid.rounded(cy * units / video.SCREEN[1])}"\n')
    print(f'plane: the clip is item {names.index(CLIP) + 1} of {len(names)}, its tile\'s centre at ({cx:.0f}, {cy:.0f}) px')


if __name__ == '__main__':
    if sys.argv[1] == 'prepare': prepare(sys.argv[2], sys.argv[3])
    else: sys.exit(__doc__)
