#!/usr/bin/env python3
"""Host side of the `panels` stage: real touchscreens' HID report descriptors (panels/descriptors.json)
through uhid, hid-multitouch and libinput in the guest, measured by `photokiosk touch-test --report`.

  panels.py build OUT   (run with hid-tools: run.sh's venv) writes, for each run, OUT/KEY.rdesc (the
                        descriptor), KEY.dev (name, bus, ids), KEY.features (the Contact Max feature
                        report the helper answers with), KEY.play (the reports to send, built by
                        hid-tools' ReportDescriptor.create_report from the descriptor) and
                        OUT/runs + OUT/expect.json (where each report put the touches).
  panels.py check EXPECT.json CONSOLE.log DISPLAY
                        compares the app's report (the guest's @@PANEL_* lines) with expect.json and
                        prints the per-device table; exit status 1 on any mismatch.

Screen: the e2e displays' 1280x800. Taps land on touch-test's 3x3 targets (6 %, 50 %, 94 % of each
axis), each a few px off on purpose (a different offset per target), so a measured offset can
only match when the descriptor's logical range was applied; then a swipe, a two-finger pinch
(scale 2) and a lift of two of three fingers (see LIFTS)."""
import json, os, sys

SCREEN = (1280, 800)
PAN_THRESHOLD = 10      # px a finger moves before the app's pan begins
FRAME_MS = 10           # one report frame every 10 ms (100 Hz) while fingers move
HERE = os.path.dirname(os.path.abspath(__file__))
# How the stage lifts the second finger of a two-finger touch, by the device's hid-multitouch class:
#   omit          NOT_SEEN_MEANS_UP: frames that leave finger B out lift it, A goes on, then lifts
#   omit-silence  Win8 (STICKY_FINGERS): a frame leaves B out, then the panel falls silent: the
#                 kernel lifts what is left 100 ms later (a certified panel reports at >= 60 Hz)
#   release       the others: both fingers lifted by tip switch off (leaving one out would
#                 keep it down: these drivers have no "not seen means up")
LIFTS = {'omit': 0x1, 'omit-silence': 0x10000, 'release': 0}   # quirk bit the guest must see in sysfs
RUNS = [(d, 0) for d in ('egalax', 'elan', 'ilitek', 'atmel', 'ntrig', 'cvtouch', 'flatfrog', '3m', 'penmount', 'sharp')] \
    + [('elan', 90)]   # a rotated panel: --rotation 90, the touches turned with the picture


def targets(logical):
    w, h = logical
    return [(w * fx, h * fy) for fy in (0.06, 0.5, 0.94) for fx in (0.06, 0.5, 0.94)]


def aim_offset(i):
    """The deliberate miss of target i (logical px): -6..+7 in x, -5..+3 in y, none alike."""
    return ((i % 3 - 1) * 6 + 1, (i // 3 - 1) * 4 - 1)


def to_panel(p, rotation):
    """Logical px → panel px (the inverse of photokiosk's Rotation.logicalPoint; 0 and 90 only)."""
    return p if rotation == 0 else (SCREEN[0] - p[1], p[0])


def to_logical(p, rotation):
    return p if rotation == 0 else (p[1], SCREEN[0] - p[0])


class Axis:
    """A touch axis: the descriptor's logical range; libinput maps it onto the screen as
    (v - min) * size / (max - min + 1)."""
    def __init__(self, field, size):
        self.min, self.max, self.size = field.logical_min, field.logical_max, size

    def raw(self, px):
        return max(self.min, min(self.max, self.min + round(px * (self.max - self.min + 1) / self.size)))

    def px(self, raw):
        return (raw - self.min) * self.size / (self.max - self.min + 1)


class Contact:
    """One finger as hid-tools fills a report: attributes named like the usages (Tip Switch →
    tipswitch); unknown usages are left 0."""
    def __init__(self, cid, x, y, valid_is_inrange):
        self.contactid, self.x, self.y, self.cx, self.cy = cid, x, y, x, y
        self.tipswitch = self.inrange = self.confidence = 1
        self.tippressure, self.width, self.height, self.azimuth = 15, 10, 10, 0
        self.valid_is_inrange = valid_is_inrange

    def lifted(self):
        self.tipswitch = 0
        if not self.valid_is_inrange:   # those devices take in-range as "this contact is valid"
            self.inrange = 0
        return self


class Panel:
    def __init__(self, spec, rotation):
        from hidtools.hid import ReportDescriptor   # hid-tools, from run.sh's venv
        self.spec, self.rotation = spec, rotation
        self.rdesc = ReportDescriptor.from_bytes(bytes.fromhex(spec['rdesc']))
        self.touch = self.rdesc.get_report_from_application('Touch Screen')
        fields = list(self.touch)
        self.per_report = [f.usage_name for f in fields].count('Contact Id')
        x = next(f for f in fields if f.usage_name == 'X')
        y = next(f for f in fields if f.usage_name == 'Y')
        self.ax, self.ay = Axis(x, SCREEN[0]), Axis(y, SCREEN[1])
        self.scantime, self.lines = 0, []
        self.max_contacts = spec['max_contacts'] or self.contact_max()

    def contact_max(self):
        """What the panel answers for Contact Max: the feature's logical maximum, no more than
        the input report's Contact Count can say (as hid-tools' tests assume)."""
        n = min((f.logical_max for r in self.rdesc.feature_reports.values() for f in r if f.usage_name == 'Contact Max'),
                default=1)
        counts = [f.logical_max for f in self.touch if f.usage_name == 'Contact Count' and f.logical_max > 0]
        return min([n] + counts)

    def features(self):
        """The feature reports holding Contact Max, filled in: "ID HEX" lines for the helper."""
        out = []
        for r in self.rdesc.feature_reports.values():
            if any(f.usage_name == 'Contact Max' for f in r):
                class Max: contactmax = self.max_contacts
                out.append(f'{max(r.report_ID, 0)} {bytes(r.create_report([Max()], None)).hex()}')
        return out

    def contact(self, cid, logical):
        px, py = to_panel(logical, self.rotation)
        return Contact(cid, self.ax.raw(px), self.ay.raw(py), self.spec['valid_is_inrange'])

    def placed(self, c):
        """Where libinput will put contact c, in logical px."""
        return to_logical((self.ax.px(c.x), self.ay.px(c.y)), self.rotation)

    def frame(self, contacts, pause_ms=FRAME_MS):
        """One scan: as many reports as the contacts need (hybrid panels: Contact Count in the
        first report only, 0 in the rest)."""
        class Frame: pass
        g = Frame()
        g.contactcount = len(contacts)
        self.scantime = (self.scantime + pause_ms * 10) % 65536   # Scan Time counts 100 µs
        g.scantime = self.scantime
        left = list(contacts)
        while left:
            self.lines.append('report ' + bytes(self.touch.create_report(left, g)).hex())
            g.contactcount = 0
        self.lines.append(f'sleep {pause_ms}')

    def pause(self, ms):
        self.lines.append(f'sleep {ms}')

    def script(self):
        """The whole interaction; returns what the app should measure."""
        logical = SCREEN if self.rotation == 0 else (SCREEN[1], SCREEN[0])
        w, h = logical
        expect = {'targets': []}
        for i, t in enumerate(targets(logical)):
            dx, dy = aim_offset(i)
            c = self.contact(0, (t[0] + dx, t[1] + dy))
            self.frame([c], 40)
            self.frame([c.lifted()])
            px = self.placed(c)
            expect['targets'].append([round(px[0] - t[0], 2), round(px[1] - t[1], 2)])
            self.pause(300)
        # a swipe: one finger 0.4 of the width to the right in 24 frames. The app's pan starts
        # its translation at zero on the first frame past its 10 px threshold
        # (PanGestureRecognizer.defaultThreshold): the pan expected is the rest of the way.
        start, end = (0.3 * w, 0.5 * h), (0.7 * w, 0.5 * h)
        path = []
        for k in range(25):
            c = self.contact(0, (start[0] + (end[0] - start[0]) * k / 24, start[1]))
            self.frame([c])
            path.append(self.placed(c))
        self.frame([c.lifted()])
        began = next(p for p in path if abs(p[0] - path[0][0]) > PAN_THRESHOLD)
        expect['swipe'] = [round(path[-1][0] - began[0], 1), round(path[-1][1] - began[1], 1)]
        self.pause(400)
        # a pinch: two fingers around the centre, 0.15 → 0.30 of the width apart (scale 2)
        for k in range(25):
            half = (0.075 + 0.075 * k / 24) * w
            pair = [self.contact(0, (w / 2 - half, h / 2)), self.contact(1, (w / 2 + half, h / 2))]
            self.frame(pair)
        self.frame([p.lifted() for p in pair])
        expect['pinch'] = 2.0
        self.pause(400)
        # the lift: three fingers down (two where the panel takes no more; a hybrid panel needs two
        # reports a frame for three), then all but A lifted the way this panel's driver expects
        down = [(0.3 * w, 0.35 * h), (0.7 * w, 0.65 * h), (0.5 * w, 0.2 * h)][:3 if self.max_contacts >= 3 else 2]
        for k in range(4):
            self.frame([self.contact(i, (p[0] + k, p[1])) for i, p in enumerate(down)])
        a, lift = down[0], self.spec['lift']
        if lift == 'omit':
            for k in range(4):
                self.frame([self.contact(0, (a[0] + 4 + k, a[1]))])
            self.frame([self.contact(0, (a[0] + 8, a[1])).lifted()])
        elif lift == 'omit-silence':
            self.frame([self.contact(0, (a[0] + 4, a[1]))], 400)
        else:
            self.frame([self.contact(i, (p[0] + 4, p[1])).lifted() for i, p in enumerate(down)])
        self.pause(300)
        expect['fingers'] = len(down)
        expect['lift'] = lift
        return expect


def build(out):
    os.makedirs(out, exist_ok=True)
    specs = {s['key']: s for s in json.load(open(os.path.join(HERE, 'panels', 'descriptors.json')))}
    expect, runs = {}, []
    for key, rotation in RUNS:
        spec = specs[key]
        run = key if rotation == 0 else f'{key}-rot{rotation}'
        panel = Panel(spec, rotation)
        e = panel.script()
        e.update(key=key, rotation=rotation, device=spec['device'], quirk_bit=LIFTS[spec['lift']],
                 per_report=panel.per_report, max_contacts=panel.max_contacts,
                 x=[panel.ax.min, panel.ax.max], y=[panel.ay.min, panel.ay.max])
        expect[run] = e
        open(f'{out}/{run}.rdesc', 'wb').write(bytes.fromhex(spec['rdesc']))
        open(f'{out}/{run}.features', 'w').write(''.join(line + '\n' for line in panel.features()))
        open(f'{out}/{run}.play', 'w').write('\n'.join(panel.lines) + '\n')
        open(f'{out}/{run}.dev', 'w').write(f"NAME='photokiosk-e2e {spec['key']}'\nBUS={spec['bus']}\n"
                                            f"VID={spec['vendor']}\nPID={spec['product']}\n")
        runs.append(f'{run} {rotation}')
    open(f'{out}/runs', 'w').write('\n'.join(runs) + '\n')
    json.dump(expect, open(f'{out}/expect.json', 'w'), indent=1)
    print(f'panels: {len(runs)} runs, {sum(len(open(f"{out}/{r.split()[0]}.play").readlines()) for r in runs)} script lines in {out}')


def numbers(text):
    return [float(v) for v in text.replace(',', ' ').split()]


def check(expect_path, log_path, display):
    expect = json.load(open(expect_path))
    seen = {}
    for line in open(log_path, errors='replace'):
        if '@@PANEL_' not in line: continue
        tag, run, *rest = line[line.index('@@PANEL_'):].rstrip('\r\n').split(' ', 2) + ['']
        seen.setdefault(run, {'out': [], 'info': {}})
        if tag == '@@PANEL_OUT': seen[run]['out'].append(rest[0])
        else: seen[run]['info'][tag[8:]] = rest[0]
    rows, failures = [], 0
    for run, e in expect.items():
        problems, got = [], seen.get(run)
        rate = slots = ranges = size = left = '?'
        if got is None:
            problems.append('no output from the guest')
        else:
            out, info = got['out'], got['info']
            # the class's quirks as hid-multitouch's sysfs attribute prints them (decimal)
            q = info.get('DEVICE', '').split('quirks=')[-1].split()[0] if 'quirks=' in info.get('DEVICE', '') else ''
            quirks = int(q) if q.isdigit() else None
            if quirks is None: problems.append(f'no hid-multitouch device ({info.get("FAIL", "not bound")})')
            elif e['quirk_bit'] and not quirks & e['quirk_bit']:
                problems.append(f'lift "{e["lift"]}" needs quirk bit {e["quirk_bit"]:#x}, the kernel has {quirks:#x}')
            line = lambda prefix: next((l for l in out if l.startswith(prefix)), None)
            offsets = line('target offsets px: ')
            if offsets is None: problems.append('no "target offsets px" line')
            else:
                for i, part in enumerate(offsets[len('target offsets px: '):].split('; ')):
                    want = e['targets'][i]
                    if part.endswith(' -'): problems.append(f'target {i + 1} not tapped'); continue
                    dx, dy = numbers(part)[1:]
                    if abs(dx - want[0]) > 2 or abs(dy - want[1]) > 2:
                        problems.append(f'target {i + 1} offset {dx:+.1f},{dy:+.1f} px, the report put it at {want[0]:+.1f},{want[1]:+.1f}')
            pans = [numbers(l.split(' pan ')[1].split(' velocity')[0]) for l in out if l.startswith('gesture ') and ' pan ' in l]
            if not any(abs(p[0] - e['swipe'][0]) <= 2 and abs(p[1] - e['swipe'][1]) <= 2 for p in pans):
                problems.append(f'no pan of {e["swipe"][0]:.1f},{e["swipe"][1]:.1f} px (got {pans})')
            pinches = [float(l.split('pinch scale ')[1]) for l in out if 'pinch scale ' in l]
            if not any(abs(s - e['pinch']) <= 0.05 for s in pinches):
                problems.append(f'no pinch of scale {e["pinch"]} (got {pinches})')
            left = (line('fingers left down: ') or 'fingers left down: ?')[len('fingers left down: '):]
            if left != 'none': problems.append(f'finger left down after the "{e["lift"]}" lift: {left}')
            r = line('touch frames ')
            rate = r.split('report rate ')[1].split(' (')[0] if r and 'report rate ' in r and 'unknown' not in r else '?'
            s = line('contact slots seen ')
            slots = s[len('contact slots seen '):] if s else '?'
            if s and f'(at most {e["fingers"]} at once)' not in s:
                problems.append(f'contact slots: {slots}, want {e["fingers"]} fingers at once')
            p = line('panel ')
            if p:
                ranges = p.split('): ')[1].split(';')[0]
                size = p.split('; ')[1].split(' from libinput')[0] if 'from libinput' in p else 'unknown'
                want_range = f'x {e["x"][0]}..{e["x"][1]}'
                if want_range not in ranges: problems.append(f'axis ranges "{ranges}", the descriptor says {want_range}')
            else: problems.append('no "panel" line')
        failures += bool(problems)
        rows.append((run, e['device'], e['per_report'], e['lift'], rate, slots, ranges, size, left,
                     'PASS' if not problems else 'FAIL: ' + '; '.join(problems)))
    print(f'panels/{display}: run | device | contacts/report | lift | report rate | slots | ranges | size | left down | result')
    for r in rows: print('  ' + ' | '.join(map(str, r)))
    print(f'panels/{display}: {len(rows) - failures} of {len(rows)} runs pass')
    return 1 if failures else 0


if __name__ == '__main__':
    if sys.argv[1:2] == ['build']: build(sys.argv[2])
    elif sys.argv[1:2] == ['check']: sys.exit(check(*sys.argv[2:5]))
    else: sys.exit(__doc__)
