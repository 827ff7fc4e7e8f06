#!/usr/bin/env python3
"""Host side of the `storage` stage (issue 33 item 2; guest side: storage-driver.sh).

  storage.py run --kernel K --initrd I --powercut DIR --dir OUT --display D

Failing storage under a running kiosk, with dm-flakey between ext4 and the state disk; one boot,
one display device, bounded (about 2-3 minutes under TCG). Reuses the powercut stage's photos
(DIR/disk), its uploads (DIR/uploads) and its read-only program disk (DIR/prog.img).

Phase A, ext4 without a journal (errors=continue): uploads answered 201; then every write fails
(flakey error_writes) for a while: a photo stays on the screen, uploads are refused, the status
JSON says "storage failing since ...", the kiosk's log says so once; the device recovers: the
next write works, the status clears by itself, one "storage writes work again" line.
Phase B, ext4 with its journal (a frame's card): the same failure aborts the journal and ext4
refuses writes (EROFS) from then on; the device recovering does not change that (measured and
printed, not assumed); the status says so; after a fresh mount (what the next boot does) the
kiosk shows photos and its writes work. After the VM: every upload answered 201 before a failure
is on the disk images, byte for byte, and e2fsck's verdict on each image is printed (the
journaled one must be clean). Exit status 1 on any failure."""
import argparse, json, os, subprocess, sys, tempfile, time
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from powercut import api, multipart, sha
from serial_guest import LIVE, SerialGuest

PHOTO_BOUND = 90.0     # seconds from a kiosk start to a photo on screen (TCG beside Swift builds)
STATUS_BOUND = 30.0    # seconds from the failure (or recovery) to the status saying so
FAILING_FOR = 12.0     # seconds the device fails after the status said so: uploads keep being refused

def Guest(a, token, log):
    """One boot: the journal-less state disk, the powercut stage's program disk (read-only), the
    journaled state disk; console lines collected."""
    return SerialGuest(a, 'storage', f'pk.token={token}',
                       [(f'{a.dir}/nojournal.img', False), (f'{a.powercut}/prog.img', True), (f'{a.dir}/journal.img', False)], log)

def run(a):
    os.makedirs(a.dir, exist_ok=True)
    for name, features in (('nojournal', ['-O', '^has_journal']), ('journal', [])):
        subprocess.run(['mke2fs', '-q', '-F', '-t', 'ext4', *features, '-E', 'lazy_itable_init=0,lazy_journal_init=0',
                        '-d', f'{a.powercut}/disk', f'{a.dir}/{name}.img', '96M'], check=True)
    token = 'storage-' + sha(b'storage')[:24]
    pool = sorted(os.listdir(f'{a.powercut}/uploads'))
    failures, acked = [], {'A': {}, 'B': {}}   # phase -> saved name -> sha of what was answered 201
    t_stage = time.time()
    log = open(f'{a.dir}/console.log', 'w')
    g = Guest(a, token, log)
    def fail(text): failures.append(text); print(f'storage: FAIL {text}', flush=True)
    def status():
        code, body = api(g.port, token, 'GET', '/api/status', timeout=10)
        return json.loads(body) if code == 200 else None
    def upload(phase, n):
        name = pool[n % len(pool)]
        data = open(f'{a.powercut}/uploads/{name}', 'rb').read()
        body, headers = multipart(f'{phase}-{name}', data)
        code, reply = api(g.port, token, 'POST', '/api/photos', body, headers, timeout=30)
        if code == 201:
            for saved in json.loads(reply)['saved']: acked[phase][saved['name']] = sha(data)
        return code, reply
    def started(mark, what):
        s = g.wait_for('@@ST_STARTED', 90, since=mark)
        if not s: fail(f'{what}: the kiosk did not start'); return False
        shown = None
        while time.time() - s[0] < PHOTO_BOUND:
            if g.photo_on_screen(f'{a.dir}/screen.ppm'): shown = time.time(); break
            time.sleep(0.25)
        if shown is None: fail(f'{what}: no photo on screen within {PHOTO_BOUND:.0f} s'); return False
        serving = time.time() + 30
        while status() is None and time.time() < serving: time.sleep(0.2)
        print(f'storage: {what}: a photo on screen {shown - s[0]:.1f} s after the kiosk started', flush=True)
        return True
    def kernel_says(what):
        m = g.mark(); g.send('kernel')
        end = g.wait_for('@@ST_KERNEL_END', 20, since=m)
        said = [l.split('@@ST_KERNEL ', 1)[1] for l in g.lines_since(m) if '@@ST_KERNEL ' in l]
        for l in said: print(f'storage: {what}: kernel: {l.strip()}')
        return end[1].split('@@ST_KERNEL_END', 1)[1].strip() if end else '?'
    def failing_period(phase):
        """The device fails: returns the status JSON seen while failing (or None)."""
        m = g.mark(); g.send('fail')
        t = g.wait_for('@@ST_FAILING', 20, since=m)
        if not t: fail(f'phase {phase}: the device did not start failing'); return None, m
        t_fail = time.time()
        seen, codes, shots, n = None, [], [], 100
        while time.time() - t_fail < STATUS_BOUND:
            codes.append(upload(phase, n)[0]); n += 1
            s = status()
            if s and s.get('storage', 'ok') != 'ok': seen = s; break
            time.sleep(0.5)
        if seen is None:
            fail(f'phase {phase}: the status did not say storage is failing within {STATUS_BOUND:.0f} s (uploads answered {codes})')
            return None, m
        print(f'storage: phase {phase}: status says failing {time.time() - t_fail:.1f} s after the device failed '
              f'(uploads meanwhile answered {codes})', flush=True)
        # it keeps failing: the kiosk keeps showing photos and refusing uploads, never 201
        end = time.time() + FAILING_FOR
        while time.time() < end:
            code, _ = upload(phase, n); n += 1; codes.append(code)
            if code == 201: fail(f'phase {phase}: an upload was answered 201 while every write fails')
            shots.append(g.photo_on_screen(f'{a.dir}/screen.ppm'))
            time.sleep(1)
        if not shots or not all(shots): fail(f'phase {phase}: the screen lost its photo while storage failed ({shots})')
        seen = status() or seen
        print(f'storage: phase {phase}: status JSON while failing: {json.dumps(seen)}', flush=True)
        print(f'storage: phase {phase}: {len(codes)} uploads refused while failing ({sorted(set(codes))}); '
              f'photo on screen in {sum(shots)}/{len(shots)} screendumps', flush=True)
        return seen, m

    if not g.wait_for('@@BOOTED', 90): fail('the guest did not boot')
    # Phase A: no journal, the device recovers, so does the kiosk, by itself
    m = g.mark(); g.send('start A')
    if not failures and started(m, 'phase A (ext4 without a journal)'):
        api(g.port, token, 'POST', '/api/slideshow', b'{"on": true}', {'Content-Type': 'application/json'})
        for n in range(3):
            if upload('A', n)[0] != 201: fail('phase A: an upload before the failure was not answered 201')
        seen, m_fail = failing_period('A')
        if seen:
            if not seen['storage'].startswith('storage failing since ') or seen['storage_failed_writes'] < 1:
                fail(f'phase A: status storage {seen["storage"]!r}, {seen["storage_failed_writes"]} failed writes')
            kernel_says('phase A failing')
            m = g.mark(); g.send('recover'); g.wait_for('@@ST_RECOVERED', 20, since=m)
            t_rec, ok, codes, n = time.time(), None, [], 200
            while time.time() - t_rec < STATUS_BOUND:
                code, _ = upload('A', n); n += 1; codes.append(code)
                s = status()
                if code == 201 and s and s['storage'] == 'ok': ok = s; break
                time.sleep(0.5)
            if ok is None: fail(f'phase A: no recovery within {STATUS_BOUND:.0f} s of the device recovering (uploads {codes}, status {status()})')
            else: print(f'storage: phase A: the next upload answered 201 and the status cleared {time.time() - t_rec:.1f} s '
                        f'after the device recovered, without a restart (uploads {codes}); status: {json.dumps(ok)}', flush=True)
            said = g.lines_since(m_fail)
            failing_lines = [l for l in said if 'storage failing since' in l]
            again_lines = [l for l in said if 'storage writes work again' in l]
            for l in failing_lines + again_lines: print(f'storage: phase A: log: {l.strip()}')
            if len(failing_lines) != 1: fail(f'phase A: "storage failing" logged {len(failing_lines)} times, not once')
            if len(again_lines) != 1: fail(f'phase A: "storage writes work again" logged {len(again_lines)} times, not once')

    # Phase B: a journal; ext4 gives up on the file system; a fresh mount brings it back
    m = g.mark(); g.send('start B')
    if not failures and started(m, 'phase B (ext4 with its journal)'):
        for n in range(3):
            if upload('B', n)[0] != 201: fail('phase B: an upload before the failure was not answered 201')
        seen, m_fail = failing_period('B')
        if seen:
            print(f'storage: phase B: mount options while failing: {kernel_says("phase B failing")}')
            m = g.mark(); g.send('recover'); r = g.wait_for('@@ST_RECOVERED', 20, since=m)
            time.sleep(3)
            code, reply = upload('B', 300)
            s = status()
            print(f'storage: phase B: the device recovered; mount options {r[1].split()[-1] if r else "?"}; an upload now '
                  f'answered {code} {reply[:120]!r}; status {s and s["storage"]!r}', flush=True)
            if code == 201 and s and s['storage'] == 'ok':
                print('storage: phase B: the journaled ext4 took writes again without a remount')
            elif code == 201 or (s and s['storage'] == 'ok'):
                fail(f'phase B: the status does not match the writes: upload {code}, status {s and s["storage"]!r}')
            else:
                print('storage: phase B: as documented, the mounted file system stays refusing writes after the device '
                      'recovered, and the status keeps saying so')
            for l in [l for l in g.lines_since(m_fail) if 'storage failing since' in l or 'storage read-only since' in l]:
                print(f'storage: phase B: log: {l.strip()}')
            if sum('storage failing since' in l for l in g.lines_since(m_fail)) > 1:
                fail('phase B: "storage failing" logged more than once')
            m = g.mark(); t_remount = time.time(); g.send('remount')
            if g.wait_for('@@ST_MOUNTED', 30, since=m) and started(m, 'phase B after a fresh mount (the next boot)'):
                code, _ = upload('B', 400)
                s = status()
                if code != 201 or not s or s['storage'] != 'ok':
                    fail(f'phase B: after the fresh mount an upload answered {code}, status {s and s["storage"]!r}')
                else:
                    print(f'storage: phase B: after the fresh mount: upload 201, status ok, {time.time() - t_remount:.1f} s '
                          f'after the remount began', flush=True)
            else: fail('phase B: the fresh mount or the kiosk after it failed')
    m = g.mark(); g.send('stop'); g.wait_for('@@ST_STOPPED', 30, since=m)
    g.cut(); log.close()

    # what is on the disks: every upload answered 201 before the failures, byte for byte
    for phase, image in (('A', 'nojournal'), ('B', 'journal')):
        check = subprocess.run(['e2fsck', '-fn', f'{a.dir}/{image}.img'], capture_output=True, text=True)
        verdict = 'clean' if check.returncode == 0 else f'rc {check.returncode}: ' + ' / '.join(check.stdout.strip().splitlines()[-3:])
        print(f'storage: phase {phase}: e2fsck -fn on the {image} image: {verdict}')
        if phase == 'B' and check.returncode != 0: fail(f'phase B: e2fsck on the journaled image: {check.stdout[-400:]}')
        dump = tempfile.mkdtemp(prefix='st-dump-', dir=a.dir)
        subprocess.run(['debugfs', '-R', f'rdump /photokiosk/photos {dump}', f'{a.dir}/{image}.img'], capture_output=True, check=True)
        missing = [n for n, h in acked[phase].items()
                   if not os.path.exists(f'{dump}/photos/{n}') or sha(open(f'{dump}/photos/{n}', 'rb').read()) != h]
        if missing: fail(f'phase {phase}: uploads answered 201 missing or different on the disk: {missing}')
        else: print(f'storage: phase {phase}: all {len(acked[phase])} uploads answered 201 are on the disk, byte-identical')
        subprocess.run(['rm', '-rf', dump])
    print(f'storage: {"PASS" if not failures else "FAIL"} ({time.time() - t_stage:.0f} s)')
    return 1 if failures else 0

def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('what', choices=['run'])
    ap.add_argument('--kernel', required=True); ap.add_argument('--initrd', required=True)
    ap.add_argument('--powercut', required=True, help="the powercut stage's folder: photos, uploads, prog.img")
    ap.add_argument('--dir', required=True); ap.add_argument('--display', default='bochs')
    try: return run(ap.parse_args())
    finally:
        for p in LIVE:
            if p.poll() is None: p.kill(); p.wait()

if __name__ == '__main__':
    sys.exit(main())
