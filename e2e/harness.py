#!/usr/bin/env python3
"""Boot the PhotoKiosk test VM under QEMU, answer the guest's "@@READY <stage>" lines with QMP
screendumps, and check the screen's pixels from the host.

Each stage's expectations are (x, y) fractions of the screen with the RGB expected there, or a
rule ("changed": differs from the previous stage, "busy": not one flat colour, "like:<stage>":
at most 3% of the screen differs from that earlier stage's screendump: the same picture, give
or take a caption that faded; "turned:<stage>": likewise, with that screendump turned by 180°;
"photo:<stage>": likewise, in the top 70% only, above the album's bottom chrome, which fades
on its own clock)."""
import argparse, importlib.util, json, os, re, select, socket, subprocess, sys, time
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import pixels

DISPLAYS = {
    'bochs':  ['-vga', 'none', '-device', 'bochs-display'],    # bochs-drm: writes show at once
    'std':    ['-vga', 'std'],                                  # bochs-drm behind legacy VGA
    'virtio': ['-vga', 'none', '-device', 'virtio-gpu-pci'],   # virtio_gpu: needs flip/DirtyFB
}
RED, GREEN, BLUE, WHITE = (255, 0, 0), (0, 255, 0), (0, 0, 255), (255, 255, 255)
YELLOW, MAGENTA, CYAN, ORANGE = (255, 255, 0), (255, 0, 255), (0, 255, 255), (255, 128, 0)
GRID_BG = (0x11, 0x11, 0x14)   # ThumbnailGridView's background: the gaps between cells
EXPECT = {
    'quadrants': [((.25, .25), RED), ((.75, .25), GREEN), ((.25, .75), BLUE), ((.75, .75), WHITE)],
    'damage':    [((.5, .5), YELLOW), ((.1, .1), MAGENTA), ((.9, .9), CYAN), ((.25, .25), RED),
                  ((.75, .25), GREEN), ((.25, .75), BLUE), ((.75, .75), WHITE)],
    'touch':     [((.3, .5), WHITE), ((.5, .5), WHITE), ((.7, .5), WHITE), ((.5, .75), ORANGE),
                  ((.1, .1), MAGENTA), ((.9, .9), CYAN), ((.75, .25), GREEN)],
    'dirtyfb':   [((.5, .5), YELLOW), ((.25, .25), RED), ((.75, .25), GREEN), ((.25, .75), BLUE), ((.75, .75), WHITE)],
    'master_regained': [((.25, .25), RED), ((.75, .25), GREEN), ((.25, .75), BLUE), ((.75, .75), WHITE)],
    'fbdev':     [((.25, .25), RED), ((.75, .25), GREEN), ((.25, .75), BLUE), ((.75, .75), WHITE)],
    # the real app (app-driver.sh): a photo grid, scrolled by a swipe, a photo opened by a tap
    'app_start': ['busy', 'stable'],
    'app_swipe': ['changed', 'busy', 'stable'],
    'app_tap':   ['changed', 'stable'],
    'app_back':  ['changed', 'busy'],
    'app_exit':  [],
    # photokiosk as a user without device groups, through seatd; a VT switch away and back
    'seat_start':   ['busy', 'stable'],
    'seat_vt_away': ['changed'],
    'seat_back':    ['changed', 'busy', 'stable'],
    'seat_touch':   ['changed', 'stable'],
    # photokiosk.service from the Debian package, in its sandbox, under Debian's systemd
    'unit_start': ['busy', 'stable'],
    'unit_swipe': ['changed', 'busy', 'stable'],
    'unit_tap':   ['changed', 'stable'],
    'unit_blank': ['dark', 'stable'],   # virtio also 'inactive' (see main)
    'unit_wake':  ['changed', 'busy', 'stable'],
    # a display schedule that is off now: DPMS off (black), a tap wakes it (the grid again)
    'blank_off':  ['dark', 'stable'],   # virtio also 'inactive' (see main)
    'blank_wake': ['changed', 'busy', 'stable'],
    # a motion sensor on a simulated GPIO line (presence-driver.sh): off with nobody there, woken
    # by motion (the grid), off 5 s after the motion ended, and dark at night despite motion. The
    # driver checks DPMS in sysfs each time; bochs-display keeps showing the last frame with DPMS
    # off, so 'dark' is checked where the app blanked before drawing (night) and on virtio
    'presence_empty': ['stable'],           # virtio also 'dark', 'inactive' (see main)
    'presence_wake':  ['busy', 'stable'],
    'presence_blank': ['stable'],           # virtio also 'dark', 'inactive'
    'presence_night': ['dark', 'stable'],   # virtio also 'inactive'
    # fault stage (faults-driver.sh): devices come and go, the app carries on
    'faults_start':   ['busy', 'stable'],
    'faults_hotplug': ['changed', 'stable'],
    'faults_drm':     ['changed', 'busy', 'stable'],
    'faults_touch_held': ['changed', 'stable'],                 # a long press lifted a thumbnail
    'faults_touch_gone': ['like:faults_drm', 'stable'],         # device gone: touch cancelled, landed
    'faults_touch_back': ['changed', 'stable'],                 # the recreated device: a tap opens a photo
    'faults_grid':       ['like:faults_drm', 'stable'],
    # the CRTC switched off: virtio shows QEMU's "not active" (see main); bochs-display keeps
    # showing its video memory, so there the guest checks the CRTC state in debugfs instead
    'faults_display_off': ['stable'],
    'faults_display_on':  ['like:faults_drm', 'stable'],        # modeset again, full redraw
    'faults_master_stolen': [((.1, .1), ORANGE), ((.9, .1), ORANGE), ((.5, .5), ORANGE), ((.9, .9), ORANGE)],
    # the photo the tap opened meanwhile; its chrome (filmstrip, indicator, caption) has faded since
    'faults_master_back':   ['photo:faults_touch_back', 'stable'],
    'faults_vt':      ['changed', 'busy', 'stable'],
    'faults_wait_master': [((.1, .1), MAGENTA), ((.9, .1), MAGENTA), ((.5, .5), MAGENTA), ((.9, .9), MAGENTA), 'stable'],
    'faults_master_free': ['like:faults_vt', 'stable'],        # the grid, scrolled as the first run left it
    # touch calibration and screen rotation with the app (calib-driver.sh): which photo a tap
    # opens is checked in the guest (the app's log); here, that the screen shows it
    'calib_grid':        ['busy', 'stable'],
    'calib_plain':       ['changed'],      # the photo under the tap (not 'stable': its full decode may still come)
    'calib_back':        ['like:calib_grid', 'stable'],         # Escape: the grid, not scrolled
    'calib_target':      ['changed', 'stable'],                 # the photo a quarter-width right
    'calib_offset_grid': ['like:calib_grid', 'stable'],         # calibration does not move the picture
    # the same tap, calibrated: that photo (its bottom chrome may have faded meanwhile on a slow guest)
    'calib_offset':      ['photo:calib_target', 'stable'],
    # the portrait grid turned clockwise onto the landscape panel: where its gaps and first and
    # last cells land there comes from grid-photos.py (--expect), as do the photos' colours
    'rot90_grid':  ['busy', 'stable'],
    'rot90_tap':   ['changed', 'stable'],   # settled: the photo is tiled on a portrait screen (its tiles come last)
    'rot270_grid': ['turned:rot90_grid', 'stable'],
    'rot270_tap':  ['changed'],
    'rot180_grid': ['turned:calib_grid', 'stable'],
    'rot180_tap':  ['changed'],
    # logical quadrants turned a quarter clockwise: logical top-left lands top-right
    'rotated90': [((.75, .25), RED), ((.75, .75), GREEN), ((.25, .25), BLUE), ((.25, .75), WHITE)],
}

class QMP:
    def __init__(self, path, timeout=10):
        t = time.time() + timeout
        while True:
            try:
                self.s = socket.socket(socket.AF_UNIX); self.s.connect(path); break
            except OSError:
                if time.time() > t: raise
                time.sleep(0.05)
        self.f = self.s.makefile('rw')
        self._read()
        self.cmd('qmp_capabilities')
    def _read(self):
        while True:
            line = self.f.readline()
            if not line: raise ConnectionError('QEMU closed the QMP socket')
            m = json.loads(line)
            if 'event' not in m: return m
    def cmd(self, name, **args):
        # QEMU gone or the socket reset (a guest that crashed, two runs on one socket): an answer
        # with an error, which the stage reports as its failure, instead of a harness traceback.
        try:
            self.f.write(json.dumps({'execute': name, 'arguments': args}) + '\n'); self.f.flush()
            return self._read()
        except (OSError, ValueError) as e:
            return {'error': {'class': 'QMPConnectionLost', 'desc': f'{name}: {type(e).__name__}: {e}'}}

def pixel(img, fx, fy):
    w, h, px = img
    x, y = min(int(fx * w), w - 1), min(int(fy * h), h - 1)
    o = (y * w + x) * 3
    return (x, y), tuple(px[o:o+3])

def difference(a, b, step=4, rows=1.0):
    """The fraction of sampled pixels (every `step`th in both directions, in the top `rows` of
    the screen) that differ."""
    if a[:2] != b[:2]: return 1.0
    w, h = a[0], a[1]
    samples = [(y * w + x) * 3 for y in range(0, int(h * rows), step) for x in range(0, w, step)]
    return sum(a[2][o:o+3] != b[2][o:o+3] for o in samples) / len(samples)

def turned180(img, cache={}):
    """The screendump turned by 180° (pixel order reversed), computed once per image."""
    key = id(img[2])
    if key not in cache:
        px = img[2]
        cache[key] = (img[0], img[1], b''.join(px[o:o+3] for o in range(len(px) - 3, -1, -3)))
    return cache[key]

PHOTO_ROWS = 0.7
REFERENCE_IMAGES = {}    # reference picture -> its pixels, decoded once
REFERENCE_FIGURES = {}   # reference picture -> (pixels differing, total, largest difference), last compared

def sibling_module(name, file, cache={}):
    """A script beside this one, loaded as a module on first use."""
    if name not in cache:
        spec = importlib.util.spec_from_file_location(name, os.path.join(os.path.dirname(os.path.abspath(__file__)), file))
        cache[name] = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(cache[name])
    return cache[name]

def video_clip():
    """e2e/video-clip.py, the video stage's reference frames and checks."""
    return sibling_module('video_clip', 'video-clip.py')

CLIP_FRAMES = {}   # stage -> the decoded frame its screendump matched (video stage)
LAST_CLIP = {}     # the last clip match: frame, mean difference, outliers
PLANES = {}        # the plane stage: 'last' -> planeshot's last "@@PLANES" line; stage -> the line of its shot

def plane_rules():
    """e2e/plane.py, the plane stage's checks on the planes."""
    return sibling_module('plane', 'plane.py')

def check(img, rules, previous, last_try, named={}):
    bad = []
    for rule in rules:
        if isinstance(rule, tuple) and rule[0] in ('clip', 'clip_moved'):
            # ('clip', DIR): the clip's rectangle shows one of its decoded frames, the bars around
            # it are black; ('clip_moved', DIR, STAGE): a different frame than STAGE's screendump,
            # and not one pixel outside the rectangle changed since
            video = video_clip()
            frame, mean, off = video.match(rule[1], img)
            LAST_CLIP.update(frame=frame, mean=mean, off=off)
            if frame is None or mean > video.TOLERANCE or off > video.OUTLIERS:
                bad.append(f'the clip\'s rectangle is no decoded frame: closest frame {frame}, mean difference {mean:.2f} '
                           f'(tolerance {video.TOLERANCE}), {off:.2%} of the samples off by over 48 (at most {video.OUTLIERS:.0%})')
            lit = video.outside_lit(img)
            if lit: bad.append(f'{lit} pixels lit outside the clip\'s rectangle')
            if rule[0] == 'clip_moved':
                other = named.get(rule[2])
                if other is None: bad.append(f'no screendump of {rule[2]} to compare with')
                else:
                    if frame == CLIP_FRAMES.get(rule[2]): bad.append(f'the same frame ({frame}) as {rule[2]}: the clip does not play')
                    changed = video.outside_differs(img, other)
                    if changed: bad.append(f'{changed} pixels outside the clip\'s rectangle changed since {rule[2]}')
            continue
        if isinstance(rule, tuple) and rule[0] in ('overlay', 'overlay_moved'):
            # the plane stage: ('overlay',) the planes of this shot (the "@@PLANES" line printed
            # before its READY) show the clip on an overlay plane; ('overlay_moved', STAGE) whose
            # framebuffer is not the one STAGE's shot had
            plane = plane_rules()
            if rule[0] == 'overlay':
                bad += plane.overlay_problems(PLANES.get('last'))
                continue
            bad += plane.moved_problems(PLANES.get(rule[1]), PLANES.get('ids'), PLANES.get('last'), rule[1])
            continue
        if isinstance(rule, str) and rule.startswith(('like:', 'turned:', 'photo:')):
            kind, name = rule.split(':', 1)
            other = named.get(name)
            if other is None: bad.append(f'no screendump of {name} to compare with')
            else:
                # photo: the album's picture only, above where its bottom chrome sits (the
                # filmstrip, indicator and caption fade on their own clock)
                rows = PHOTO_ROWS if kind == 'photo' else 1.0
                d = difference(img, turned180(other) if kind == 'turned' else other, rows=rows)
                where = 'of the screen' if kind != 'photo' else f'of the top {rows:.0%} of the screen'
                if d > 0.03: bad.append(f'{d:.1%} {where} differs from {name}{" turned by 180°" if kind == "turned" else ""}')
        elif isinstance(rule, tuple) and rule[0] == 'reference':
            # ('reference', picture, threshold, fraction): at most that fraction of the pixels
            # differs from the picture (another build's rendering) by more than threshold
            _, path, threshold, fraction = rule
            if path not in REFERENCE_IMAGES: REFERENCE_IMAGES[path] = pixels.read(path)
            differing, total, largest, first = pixels.compare(img, REFERENCE_IMAGES[path], threshold)
            REFERENCE_FIGURES[path] = (differing, total, largest)
            if differing > fraction * total:
                bad.append(f'{differing} of {total} pixels ({differing / total:.2%}) differ from {os.path.basename(path)} '
                           f'by more than {threshold} (largest {largest}, first at {first})')
        elif rule == 'stable':     # settled: same as the screendump taken half a second before
            if last_try is None or last_try[2] != img[2]: bad.append('screen still changing')
        elif rule == 'changed':
            if previous is not None and previous[2] == img[2]: bad.append('screen did not change')
        elif rule in ('dark', 'inactive'):
            w, h, px = img
            lit = [(i // 3 % w, i // 3 // w) for i in range(0, len(px), 3) if px[i:i+3] != b'\0\0\0']
            if rule == 'dark' and len(lit) > w * h // 200: bad.append(f'not dark: {len(lit)} pixels lit')
            # QEMU's "Display output is not active." (a virtio-gpu scanout switched off): a line
            # of text in the middle of a black screen; a black frame the app drew has none.
            if rule == 'inactive' and (not lit or any(abs(x - w / 2) > w * .2 or abs(y - h / 2) > h * .1 for x, y in lit)):
                bad.append(f'not QEMU\'s "display output is not active" ({len(lit)} pixels lit)')
        elif rule == 'busy':   # 81 points off any regular grid's pitch (8 columns put x = k/8 in the gaps)
            if len({pixel(img, (2 * fx + 1) / 18, (2 * fy + 1) / 18)[1] for fx in range(9) for fy in range(9)}) < 4:
                bad.append('screen is (nearly) one flat colour')
        elif rule[0] == 'near':  # ('near', (fx, fy), colour): that colour there, give or take JPEG's error
            (x, y), got = pixel(img, *rule[1])
            if max(abs(a - b) for a, b in zip(got, rule[2])) > 40: bad.append(f'({x},{y}) got {got} want about {rule[2]}')
        elif len(rule) == 3:     # ((fx, fy), 'not', colour): anything but that colour there
            (fx, fy), _, other = rule
            (x, y), got = pixel(img, fx, fy)
            if got == other: bad.append(f'({x},{y}) is {got}')
        else:
            (fx, fy), want = rule
            (x, y), got = pixel(img, fx, fy)
            if got != want: bad.append(f'({x},{y}) got {got} want {want}')
    return bad

STAGES = {'platform': ['quadrants', 'damage', 'touch', 'rotated90', 'dirtyfb', 'master_regained', 'fbdev'],
          'app': ['app_start', 'app_swipe', 'app_tap', 'app_back', 'app_exit'],
          'seat': ['seat_start', 'seat_vt_away', 'seat_back', 'seat_touch'],
          'blank': ['blank_off', 'blank_wake'],
          'presence': ['presence_empty', 'presence_wake', 'presence_blank', 'presence_night'],
          'unit': ['unit_start', 'unit_swipe', 'unit_tap', 'unit_blank', 'unit_wake'],
          'faults': ['faults_start', 'faults_hotplug', 'faults_drm', 'faults_touch_held', 'faults_touch_gone',
                     'faults_touch_back', 'faults_grid', 'faults_display_off', 'faults_display_on',
                     'faults_master_stolen', 'faults_master_back', 'faults_vt', 'faults_wait_master',
                     'faults_master_free'],
          'calib': ['calib_grid', 'calib_plain', 'calib_back', 'calib_target', 'calib_offset_grid', 'calib_offset',
                    'rot90_grid', 'rot90_tap', 'rot180_grid', 'rot180_tap'],   # + rot270_* with pk.rot270=1
          # 256 MB guest (smallboard-driver.sh): the album through 10 generated photos, one zoomed
          'smallboard': ['sb_grid'] + [f'sb_page_{i}' for i in range(10)] + ['sb_zoom'],
          # 512 MB guest (video-driver.sh): three big photos, then a 1080p30 H.264 clip playing
          # (two screendumps a second apart), paused by a tap
          'video': ['vid_grid', 'vid_page_0', 'vid_page_1', 'vid_page_2', 'vid_clip_a', 'vid_clip_b', 'vid_paused'],
          # the video stage's clip on vkms (plane-driver.sh): two screens composed from the planes
          # in the guest (planeshot) a second apart, read from the --shots disk
          'plane': ['plane_clip_a', 'plane_clip_b'],
          # real touch panels over uhid (panels-driver.sh): no screendumps, the host checks the
          # app's reports with panels.py check
          'panels': [],
          # Debian 13 arm64 with the arm64 package (arm64-driver.sh): the unit's kiosk, then the
          # small board's flick through the big photos
          'arm64': ['arm64_grid', 'arm64_tap', 'arm64_swipe', 'sb_grid'] + [f'sb_page_{i}' for i in range(10)]}
# How long a stage may take to reach its expected screen (the app has no frame handshake).
PATIENCE = {'app_start': 60, 'app_swipe': 30, 'app_tap': 30, 'app_back': 20,
            'seat_start': 60, 'seat_vt_away': 10, 'seat_back': 30, 'seat_touch': 30,
            'blank_off': 10, 'blank_wake': 30,
            'presence_empty': 10, 'presence_wake': 60, 'presence_blank': 10, 'presence_night': 10,
            'unit_start': 60, 'unit_swipe': 30, 'unit_tap': 30, 'unit_blank': 10, 'unit_wake': 30,
            'faults_start': 60, 'faults_hotplug': 30, 'faults_drm': 30, 'faults_vt': 30,
            'faults_touch_held': 20, 'faults_touch_gone': 20, 'faults_touch_back': 30, 'faults_grid': 20,
            'faults_display_off': 20, 'faults_display_on': 30, 'faults_master_stolen': 10,
            'faults_master_back': 30, 'faults_wait_master': 10, 'faults_master_free': 45,
            'calib_grid': 60, 'calib_plain': 30, 'calib_back': 45, 'calib_target': 30, 'calib_offset_grid': 90,
            'calib_offset': 30, 'rot90_grid': 60, 'rot90_tap': 30, 'rot270_grid': 45, 'rot270_tap': 30,
            'rot180_grid': 45, 'rot180_tap': 30,
            # emulated 1 GHz-class CPU decoding 5120x2880 progressive and 50-megapixel photos
            'sb_grid': 120, 'sb_zoom': 180, **{f'sb_page_{i}': 90 for i in range(10)},
            'vid_grid': 120, 'vid_page_0': 90, 'vid_page_1': 90, 'vid_page_2': 90, 'vid_clip_a': 60, 'vid_clip_b': 30,
            'vid_paused': 30,
            'arm64_grid': 240, 'arm64_tap': 60, 'arm64_swipe': 60}
EXPECT.update({'arm64_grid': ['busy', 'stable'], 'arm64_tap': ['changed', 'stable'], 'arm64_swipe': ['changed', 'stable']})

# TCG on a busy 2-core host is slow: the debug test bundle spends about 1.3 s of CPU (natively)
# in Swift's generic metadata before its first log line, 60-90 s in the guest under load (measured
# 2026-11), and the release program still needs tens of seconds for its first screen, so every
# stage may wait this many times its patience above. A passing stage waits only
# until its screen matches; only a failing one waits the whole time.
SLOW = float(os.environ.get('E2E_PATIENCE_SCALE', '4'))

def screendump(qmp, path):
    if os.path.exists(path): os.unlink(path)
    res = qmp.cmd('screendump', filename=path)
    for _ in range(40):            # screendump can return before the file is complete
        if os.path.exists(path) and os.path.getsize(path) > 15: break
        time.sleep(0.05)
    time.sleep(0.05)
    return res

def read_shot(disk, mib, path):
    """A binary PPM the guest wrote to the raw disk at `mib` MiB (the plane stage's planeshots),
    copied to `path`; QMP-like: {} or {'error': why}."""
    with open(disk, 'rb') as f:
        f.seek(mib << 20)
        head = f.read(64)
        m = re.match(rb'P6\s+(\d+)\s+(\d+)\s+255\s', head)   # one whitespace byte, then the pixels
        if not m: return {'error': f'no PPM at {mib} MiB of {disk}: {head[:20]!r}'}
        w, h = int(m[1]), int(m[2])
        f.seek((mib << 20) + m.end())
        px = f.read(w * h * 3)
    if len(px) != w * h * 3: return {'error': f'the PPM at {mib} MiB of {disk} is cut short'}
    pixels.write_ppm((w, h, px), path)
    return {}

def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--display', default='bochs', choices=DISPLAYS)
    ap.add_argument('--kernel', required=True)
    ap.add_argument('--initrd', required=True)
    ap.add_argument('--out', required=True)
    ap.add_argument('--mode', default='platform')
    ap.add_argument('--expect', help='JSON file with extra rules per stage (grid-photos.py, smallboard-photos.py)')
    ap.add_argument('--timeout', type=float, default=1800)
    ap.add_argument('--append', default='', help='more kernel command line words (e.g. pk.rot270=1)')
    ap.add_argument('--save-recording', help='write the guest\'s "@@REC" lines here (record-driver.sh)')
    ap.add_argument('--memory', type=int, default=1024, help='guest RAM in MB (smallboard: 256)')
    ap.add_argument('--resolution', help='WxH of the display device (default: its own, 1280x800)')
    ap.add_argument('--drive', help='a raw disk image for the guest (/dev/vda)')
    ap.add_argument('--shots', help='a second raw disk (/dev/vdb) where the guest writes the screens it composed '
                    '(the plane stage): "@@READY STAGE shot@N" means the PPM at N MiB instead of a screendump')
    ap.add_argument('--arch', default='x86_64', choices=['x86_64', 'arm64'],
                    help='arm64: qemu-system-aarch64 -M virt, 4 Cortex-A53, root on --drive')
    a = ap.parse_args()
    expect = dict(EXPECT)
    if a.display == 'virtio':
        expect['blank_off'] = expect['blank_off'] + ['inactive']
        for stage in ('presence_empty', 'presence_blank'): expect[stage] = expect[stage] + ['dark', 'inactive']
        expect['presence_night'] = expect['presence_night'] + ['inactive']
        expect['unit_blank'] = expect['unit_blank'] + ['inactive']
        expect['faults_display_off'] = expect['faults_display_off'] + ['dark', 'inactive']
    if a.expect:   # added to the stage's own rules (where the grid's cells and gaps are: grid-photos.py)
        for stage, rules in json.load(open(a.expect)).items():
            expect[stage] = expect.get(stage, []) + [
                r if isinstance(r, str) else ('near', tuple(r[1]), tuple(r[2])) if r[0] == 'near'
                else tuple(r) if r[0] in ('reference', 'clip', 'clip_moved', 'overlay', 'overlay_moved')
                else (tuple(r[0]), 'not', tuple(r[2])) if len(r) == 3 else (tuple(r[0]), tuple(r[1])) for r in rules]
    os.makedirs(a.out, exist_ok=True)
    qmp_path = f'{a.out}/qmp-{a.display}.sock'
    if os.path.exists(qmp_path): os.unlink(qmp_path)
    device = list(DISPLAYS[a.display])
    if a.resolution and a.display in ('bochs', 'virtio'):   # bochs-display: video memory for two buffers
        w, h = a.resolution.split('x')
        device[-1] += f',xres={w},yres={h}' + (',vgamem=33554432' if a.display == 'bochs' else '')
    if a.drive:
        device += ['-drive', f'file={a.drive},if=virtio,format=raw']
    if a.shots:
        device += ['-drive', f'file={a.shots},if=virtio,format=raw']
    cmd = ['qemu-system-x86_64', '-accel', 'tcg', '-m', str(a.memory), '-smp', '1', '-kernel', a.kernel, '-initrd', a.initrd,
           '-append', f'console=ttyS0 quiet panic=-1 pk.mode={a.mode} {a.append}'.rstrip(),
           '-display', 'none', '-serial', 'stdio', '-monitor', 'none', '-qmp', f'unix:{qmp_path},server=on,wait=off',
           '-no-reboot', *device]
    if a.arch == 'arm64':   # a Raspberry Pi 3-class CPU; TCG only (no KVM here)
        cmd = ['qemu-system-aarch64', '-M', 'virt', '-cpu', 'cortex-a53', '-smp', '4', '-accel', 'tcg',
               '-m', str(a.memory), '-kernel', a.kernel, '-initrd', a.initrd,
               '-append', f'console=ttyAMA0 quiet panic=-1 pk.mode={a.mode} {a.append}'.rstrip(),
               '-display', 'none', '-serial', 'stdio', '-monitor', 'none', '-qmp', f'unix:{qmp_path},server=on,wait=off',
               '-no-reboot', *device]
    t0 = time.time()
    p = subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    qmp = QMP(qmp_path)
    log = open(f'{a.out}/console-{a.mode}-{a.display}.log', 'w')
    failures, marks, buf, exit_rc, previous, stages, named = [], {}, b'', None, None, [], {}
    fd = p.stdout.fileno()
    while True:
        if time.time() - t0 > a.timeout:
            failures.append('timeout'); p.kill(); break
        r, _, _ = select.select([fd], [], [], 0.5)
        if not r:
            if p.poll() is not None: break
            continue
        chunk = os.read(fd, 65536)
        if not chunk: break
        buf += chunk
        while b'\n' in buf:
            raw, buf = buf.split(b'\n', 1)
            line = raw.decode('utf-8', 'replace').rstrip('\r')
            log.write(line + '\n'); log.flush()
            if '@@' not in line:
                if any(k in line for k in ('✘', 'error', 'Error', 'failed', 'Fatal', 'libinput')): print('   ', line)
                continue
            line = line[line.index('@@'):]
            if not line[2:3].isupper(): continue
            tag = line.split()[0][2:]
            if tag == 'REC':   # a touch recording line from record-driver.sh; optional, never a failure
                if a.save_recording:
                    with open(a.save_recording, 'a') as rec: rec.write(line[6:] + '\n')
                continue
            if tag != 'TOUCH': print(f'[{time.time()-t0:6.1f}s] {line}', flush=True)
            marks.setdefault(tag, time.time() - t0)
            if tag in ('PLANES', 'PLANE_FB_IDS'): PLANES['last' if tag == 'PLANES' else 'ids'] = line
            if tag == 'READY':
                stage = line.split()[1]
                ppm = f'{a.out}/{a.mode}-{a.display}-{stage}.ppm'
                shot = next((int(w[5:]) for w in line.split()[2:] if w.startswith('shot@')), None)
                if shot is not None and a.shots:   # the guest's own composed screen: taken once, checked once
                    PLANES[stage] = PLANES.get('last')
                    res = read_shot(a.shots, shot, ppm)
                    if 'error' not in res:
                        img = pixels.read_ppm(ppm)
                        bad = check(img, expect.get(stage, []), previous, None, named)
                        pixels.write_png(img, ppm[:-4] + '.png')
                elif shot is not None:
                    res = {'error': f'{line}: no --shots disk'}
                else:
                    give_up = time.time() + PATIENCE.get(stage, 0) * SLOW
                    last_try = None
                    while True:
                        res = screendump(qmp, ppm)
                        if 'error' in res or not os.path.exists(ppm): break
                        img = pixels.read_ppm(ppm)
                        bad = check(img, expect.get(stage, []), previous, last_try, named)
                        if not bad or time.time() > give_up: break
                        last_try = img
                        time.sleep(0.5)
                    qmp.cmd('screendump', filename=ppm[:-4] + '.png', format='png')
                if 'error' in res or not os.path.exists(ppm):
                    failures.append(f'{"planeshot" if shot is not None else "screendump"} {stage}: {res}')
                else:
                    previous = img
                    named[stage] = img
                    stages.append(stage)
                    print(f'    {"planeshot" if shot is not None else "screendump"} {stage}: {img[0]}x{img[1]} -> '
                          f'{"OK" if not bad else "FAIL " + "; ".join(bad)}', flush=True)
                    for rule in expect.get(stage, []):
                        if isinstance(rule, tuple) and rule[0] == 'reference' and rule[1] in REFERENCE_FIGURES:
                            differing, total, largest = REFERENCE_FIGURES[rule[1]]
                            print(f'    {stage} against {os.path.basename(rule[1])}: {differing} of {total} pixels differ by more '
                                  f'than {rule[2]} ({differing / total:.3%}), largest channel difference {largest}; '
                                  f'settled {time.time() - t0:.1f} s after QEMU started', flush=True)
                    if any(isinstance(r, tuple) and r[0] in ('clip', 'clip_moved') for r in expect.get(stage, [])):
                        CLIP_FRAMES[stage] = LAST_CLIP.get('frame')
                        print(f'    {stage}: the clip shows decoded frame {LAST_CLIP.get("frame")} (mean channel difference '
                              f'{LAST_CLIP.get("mean", 0):.2f}, {LAST_CLIP.get("off", 1):.2%} of the samples off by over 48); '
                              f'{time.time() - t0:.1f} s after QEMU started', flush=True)
                    if bad: failures.append(f'{stage}: {bad}')
                try: p.stdin.write(b'ok\n'); p.stdin.flush()
                except BrokenPipeError: pass
            elif tag == 'EXIT':
                exit_rc = int(line.split()[1])
    try: p.wait(timeout=15)
    except subprocess.TimeoutExpired: p.kill(); failures.append('qemu did not exit')
    if exit_rc is None: failures.append('guest did not reach @@EXIT')
    elif exit_rc != 0: failures.append(f'guest test failed (rc={exit_rc}; see {log.name})')
    missing = [s for s in STAGES.get(a.mode, []) if s not in stages]
    if missing: failures.append(f'stages never reached: {missing}')
    print(f'RESULT mode={a.mode} display={a.display} {time.time()-t0:.1f}s -> '
          + ('PASS' if not failures else 'FAIL: ' + ' | '.join(map(str, failures))), flush=True)
    return 0 if not failures else 1

if __name__ == '__main__':
    sys.exit(main())
