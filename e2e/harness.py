#!/usr/bin/env python3
"""Boot the PhotoKiosk test VM under QEMU, answer the guest's "@@READY <stage>" lines with QMP
screendumps, and check the screen's pixels from the host.

Each stage's expectations are (x, y) fractions of the screen with the RGB expected there, or a
rule ("changed": differs from the previous stage, "busy": not one flat colour)."""
import argparse, json, os, select, socket, subprocess, sys, time

DISPLAYS = {
    'bochs':  ['-vga', 'none', '-device', 'bochs-display'],    # bochs-drm: writes show at once
    'std':    ['-vga', 'std'],                                  # bochs-drm behind legacy VGA
    'virtio': ['-vga', 'none', '-device', 'virtio-gpu-pci'],   # virtio_gpu: needs flip/DirtyFB
}
RED, GREEN, BLUE, WHITE = (255, 0, 0), (0, 255, 0), (0, 0, 255), (255, 255, 255)
YELLOW, MAGENTA, CYAN, ORANGE = (255, 255, 0), (255, 0, 255), (0, 255, 255), (255, 128, 0)
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
    # a display schedule that is off now: DPMS off (black), a tap wakes it (the grid again)
    'blank_off':  ['dark', 'stable'],   # virtio also 'inactive' (see main)
    'blank_wake': ['changed', 'busy', 'stable'],
    # optional fault stage (faults-driver.sh; MODES=faults): devices come and go, the app carries on
    'faults_start':   ['busy', 'stable'],
    'faults_hotplug': ['changed', 'stable'],
    'faults_drm':     ['changed', 'busy'],
    'faults_vt':      ['changed', 'busy', 'stable'],
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
            m = json.loads(self.f.readline())
            if 'event' not in m: return m
    def cmd(self, name, **args):
        self.f.write(json.dumps({'execute': name, 'arguments': args}) + '\n'); self.f.flush()
        return self._read()

def read_ppm(path):
    d = open(path, 'rb').read()
    parts, i = [], 0
    while len(parts) < 4:
        while d[i:i+1].isspace(): i += 1
        j = i
        while not d[j:j+1].isspace(): j += 1
        parts.append(d[i:j]); i = j
    return int(parts[1]), int(parts[2]), d[i+1:]

def pixel(img, fx, fy):
    w, h, px = img
    x, y = min(int(fx * w), w - 1), min(int(fy * h), h - 1)
    o = (y * w + x) * 3
    return (x, y), tuple(px[o:o+3])

def check(img, rules, previous, last_try):
    bad = []
    for rule in rules:
        if rule == 'stable':     # settled: same as the screendump taken half a second before
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
        elif rule == 'busy':
            if len({pixel(img, fx / 8, fy / 8)[1] for fx in range(1, 8) for fy in range(1, 8)}) < 4:
                bad.append('screen is (nearly) one flat colour')
        else:
            (fx, fy), want = rule
            (x, y), got = pixel(img, fx, fy)
            if got != want: bad.append(f'({x},{y}) got {got} want {want}')
    return bad

STAGES = {'platform': ['quadrants', 'damage', 'touch', 'rotated90', 'dirtyfb', 'master_regained', 'fbdev'],
          'app': ['app_start', 'app_swipe', 'app_tap', 'app_back', 'app_exit'],
          'seat': ['seat_start', 'seat_vt_away', 'seat_back', 'seat_touch'],
          'blank': ['blank_off', 'blank_wake'],
          'faults': ['faults_start', 'faults_hotplug', 'faults_drm', 'faults_vt']}
# How long a stage may take to reach its expected screen (the app has no frame handshake).
PATIENCE = {'app_start': 60, 'app_swipe': 30, 'app_tap': 30, 'app_back': 20,
            'seat_start': 60, 'seat_vt_away': 10, 'seat_back': 30, 'seat_touch': 30,
            'blank_off': 10, 'blank_wake': 30,
            'faults_start': 60, 'faults_hotplug': 30, 'faults_drm': 30, 'faults_vt': 30}

def screendump(qmp, path):
    if os.path.exists(path): os.unlink(path)
    res = qmp.cmd('screendump', filename=path)
    for _ in range(40):            # screendump can return before the file is complete
        if os.path.exists(path) and os.path.getsize(path) > 15: break
        time.sleep(0.05)
    time.sleep(0.05)
    return res

def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--display', default='bochs', choices=DISPLAYS)
    ap.add_argument('--kernel', required=True)
    ap.add_argument('--initrd', required=True)
    ap.add_argument('--out', required=True)
    ap.add_argument('--mode', default='platform')
    ap.add_argument('--expect', help='JSON file with extra stage rules (app mode)')
    ap.add_argument('--timeout', type=float, default=300)
    ap.add_argument('--save-recording', help='write the guest\'s "@@REC" lines here (record-driver.sh)')
    a = ap.parse_args()
    expect = dict(EXPECT)
    if a.display == 'virtio': expect['blank_off'] = expect['blank_off'] + ['inactive']
    if a.expect:
        for stage, rules in json.load(open(a.expect)).items():
            expect[stage] = [r if isinstance(r, str) else (tuple(r[0]), tuple(r[1])) for r in rules]
    os.makedirs(a.out, exist_ok=True)
    qmp_path = f'{a.out}/qmp-{a.display}.sock'
    if os.path.exists(qmp_path): os.unlink(qmp_path)
    cmd = ['qemu-system-x86_64', '-accel', 'tcg', '-m', '1024', '-smp', '1', '-kernel', a.kernel, '-initrd', a.initrd,
           '-append', f'console=ttyS0 quiet panic=-1 pk.mode={a.mode}',
           '-display', 'none', '-serial', 'stdio', '-monitor', 'none', '-qmp', f'unix:{qmp_path},server=on,wait=off',
           '-no-reboot', *DISPLAYS[a.display]]
    t0 = time.time()
    p = subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    qmp = QMP(qmp_path)
    log = open(f'{a.out}/console-{a.mode}-{a.display}.log', 'w')
    failures, marks, buf, exit_rc, previous, stages = [], {}, b'', None, None, []
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
            if tag == 'READY':
                stage = line.split()[1]
                ppm = f'{a.out}/{a.mode}-{a.display}-{stage}.ppm'
                give_up = time.time() + PATIENCE.get(stage, 0)
                last_try = None
                while True:
                    res = screendump(qmp, ppm)
                    if 'error' in res or not os.path.exists(ppm): break
                    img = read_ppm(ppm)
                    bad = check(img, expect.get(stage, []), previous, last_try)
                    if not bad or time.time() > give_up: break
                    last_try = img
                    time.sleep(0.5)
                qmp.cmd('screendump', filename=ppm[:-4] + '.png', format='png')
                if 'error' in res or not os.path.exists(ppm):
                    failures.append(f'screendump {stage}: {res}')
                else:
                    previous = img
                    stages.append(stage)
                    print(f'    screendump {stage}: {img[0]}x{img[1]} -> {"OK" if not bad else "FAIL " + "; ".join(bad)}', flush=True)
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
