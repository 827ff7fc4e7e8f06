#!/usr/bin/env python3
"""Host side of the `powercut` stage (issue 33 items 1 and 3; guest side: powercut-driver.sh).

  powercut.py prepare DIR          photos: the library on the state disk, a batch of new ones per
                                   cycle (into the initramfs), the uploads, the state disk's tree
  powercut.py run --kernel K --initrd I --dir DIR --display D [--cycles 30] [--budget 480]

The state disk (ext4 image) persists across the cycles. Each cycle boots the guest, waits until a
photo is on the screen (screendump: the boot-to-photo time), then lets the kiosk work — uploads
through the remote API, a batch of new photos copied into its folder, settings changed, the
slideshow on or off, and on the grid thumbnails dragged to new places (each drop saves the order)
— and cuts the VM at a seeded random moment with QMP `quit` (no sync, no
shutdown: the guest's page cache is lost, as at the wall socket). Between cycles, on the image:
journal replay, then `e2fsck -fn` must find nothing; every upload answered 201 is there, byte
for byte; every photo visible in the library is complete (one of the payloads sent, never a part);
settings, resume state, the saved order and config parse and are the old or the new ones; a thumbnail cache entry
the host damaged on purpose is reported, dropped and written again by the next boot.
A last boot (no cut) measures the writes (@@PC_WRITES). Exit status 1 on any failure."""
import argparse, hashlib, json, os, random, re, shutil, subprocess, sys, tempfile, threading, time
import urllib.error, urllib.request, tomllib
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from serial_guest import HEIGHT, LIVE, WIDTH, SerialGuest

SEED = 3301
PHOTO_BOUND = 60.0   # seconds from the kiosk's start to a photo on screen, stated bound (TCG on a shared
                     # 2-core machine: 16-47 s measured beside parallel Swift builds, 5.5-8 s in a quieter moment)

def jpeg(path, w, h, seed, quality=85):
    """A photo of its own: smooth colour ramps (busy on screen), from `seed`."""
    r = random.Random(seed)
    a, b, c = (r.randrange(256) for _ in range(3))
    rows = b''.join(bytes(v for x in range(w) for v in ((a + x) & 255, (b + y) & 255, (c + x + y) & 255)) for y in range(h))
    ppm = path + '.ppm'
    with open(ppm, 'wb') as f: f.write(b'P6 %d %d 255\n' % (w, h) + rows)
    subprocess.run(['cjpeg', '-quality', str(quality), '-outfile', path, ppm], check=True)
    os.unlink(ppm)

def prepare(d, cycles):
    shutil.rmtree(d, ignore_errors=True)
    lib = f'{d}/disk/photokiosk/photos'
    os.makedirs(lib); os.makedirs(f'{d}/disk/photokiosk/cache'); os.makedirs(f'{d}/uploads')
    for i in range(6): jpeg(f'{lib}/library-{i:02}.jpg', 480, 300, i)
    for k in range(cycles + 20):   # a batch of two new photos per cycle
        os.makedirs(f'{d}/batches/{k}')
        for j in range(2): jpeg(f'{d}/batches/{k}/batch-{k:03}-{j}.jpg', 480, 300, 1000 + k * 10 + j)
    os.makedirs(f'{d}/batches/writes')
    # named to sort first: the grid's first screen shows them, so they are thumbnailed (measured)
    for j in range(8): jpeg(f'{d}/batches/writes/aaa-writes-{j}.jpg', 480, 300, 5000 + j)
    for j in range(120): jpeg(f'{d}/uploads/upload-{j:03}.jpg', 320, 200, 9000 + j, quality=80)
    with open(f'{d}/disk/photokiosk/config.toml', 'w') as f:
        # a 96 MB card: uploads must not wait for 256 MB to stay free (the default reserve)
        f.write('# the powercut stage\n[slideshow]\ninterval = 2\ntransition = "none"\n[remote]\nreserve_mb = 8\n')
    print(f'powercut: photos in {d}')

def program_disk(d, binary, uitouch):
    """photokiosk, its libraries (started through the disk's own ld.so), the touchscreen the
    reorders are made on (uitouch, static) and the new photos' batches on a read-only ext2 image:
    /dev/vdb in the guest."""
    shutil.rmtree(f'{d}/prog', ignore_errors=True)
    os.makedirs(f'{d}/prog/lib')
    subprocess.run(['strip', '-o', f'{d}/prog/photokiosk', binary], check=True)
    shutil.copy(uitouch, f'{d}/prog/uitouch')
    libs = re.findall(r'(?:=> )?(/\S+) \(0x', subprocess.run(['ldd', binary], capture_output=True, text=True, check=True).stdout)
    # loaded with dlopen on first use: the remote API's HTTP server (and what it links)
    http = re.search(r'libmicrohttpd\.so\.12 \(libc6,x86-64\) => (\S+)', subprocess.run(['ldconfig', '-p'], capture_output=True, text=True).stdout)
    if not http: raise SystemExit('powercut: libmicrohttpd.so.12 is missing (apt-get install libmicrohttpd12)')
    libs += [http.group(1)] + re.findall(r'(?:=> )?(/\S+) \(0x', subprocess.run(['ldd', http.group(1)], capture_output=True, text=True, check=True).stdout)
    for lib in libs: shutil.copy(lib, f'{d}/prog/lib/' + os.path.basename(lib))
    shutil.copytree(f'{d}/batches', f'{d}/prog/batches')
    size = sum(os.path.getsize(os.path.join(p, f)) for p, _, fs in os.walk(f'{d}/prog') for f in fs) // (1 << 20) + 32
    subprocess.run(['mke2fs', '-q', '-F', '-t', 'ext2', '-d', f'{d}/prog', f'{d}/prog.img', f'{size}M'], check=True)
    print(f'powercut: program disk {d}/prog.img ({size} MB)')

def sha(b): return hashlib.sha256(b).hexdigest()

def drag_points():
    """The first and third thumbnails' centres on the guest's screen, from the grid's layout rule
    as grid-photos.py restates it, in uitouch's device units: "X0,Y0,X1,Y1" for pk.drag."""
    import importlib.util
    spec = importlib.util.spec_from_file_location('grid_photos', os.path.join(os.path.dirname(os.path.abspath(__file__)), 'grid-photos.py'))
    grid = importlib.util.module_from_spec(spec); spec.loader.exec_module(grid)
    layout = grid.Grid(WIDTH, HEIGHT, 1000)
    if layout.columns < 3: raise SystemExit(f'powercut: the {WIDTH}x{HEIGHT} grid has {layout.columns} columns, the drag needs 3')
    units = lambda x, size: round(x * grid.DEVICE_UNITS / size)
    (x0, y0), (x1, _) = layout.centre(0), layout.centre(2)
    return f'{units(x0, WIDTH)},{units(y0, HEIGHT)},{units(x1, WIDTH)},{units(y0, HEIGHT)}'

ORDER_HEADER = b'# photokiosk custom order v2\n'
def order_problem(data):
    """The order file (CustomOrder.serialized): its header, one path per line, a final newline."""
    if not data.startswith(ORDER_HEADER): return 'no header'
    if not data.endswith(b'\n'): return 'truncated'
    lines = data[len(ORDER_HEADER):-1].split(b'\n') if len(data) > len(ORDER_HEADER) else []
    if any(not l for l in lines): return 'an empty line'
    if len(set(lines)) != len(lines): return 'a photo twice'
    return None

def Guest(a, image, append, log):
    """One boot: the state disk (/dev/vda) and the read-only program disk; console lines collected."""
    return SerialGuest(a, 'powercut', append, [(image, False), (f'{a.dir}/prog.img', True)], log)

def api(port, token, method, path, body=None, headers=None, timeout=20):
    """(status, body); status 0 when the connection failed or was cut (the power went)."""
    try: return _api(port, token, method, path, body, headers, timeout)
    except OSError as e: return 0, str(e).encode()

def _api(port, token, method, path, body, headers, timeout):
    request = urllib.request.Request(f'http://127.0.0.1:{port}{path}', data=body, method=method, headers=dict(headers or {}))
    request.add_header('Authorization', 'Bearer ' + token)
    try:
        with urllib.request.urlopen(request, timeout=timeout) as reply: return reply.status, reply.read()
    except urllib.error.HTTPError as error: return error.code, error.read()

def multipart(name, data):
    boundary = 'pc' + sha(data)[:16]
    return (f'--{boundary}\r\nContent-Disposition: form-data; name="photo"; filename="{name}"\r\n'
            f'Content-Type: image/jpeg\r\n\r\n').encode() + data + f'\r\n--{boundary}--\r\n'.encode(), \
           {'Content-Type': f'multipart/form-data; boundary={boundary}'}

RESUME_KEYS = {'screen', 'offset', 'index', 'path', 'photo', 'slideshow'}
def resume_problem(text):
    """The resume file's format (ResumeState.encoded): header, "key value" lines, a final newline."""
    lines = text.split('\n')
    if lines[0] != 'photokiosk-resume 1': return 'no header'
    if not text.endswith('\n'): return 'truncated'
    fields = dict(l.split(' ', 1) for l in lines[1:] if l and ' ' in l)
    if any(l and ' ' not in l for l in lines[1:]) or not set(fields) <= RESUME_KEYS: return 'malformed line'
    if fields.get('screen') not in ('grid', 'album', 'photo') or fields.get('slideshow') not in ('0', '1'): return 'bad fields'
    return None

def run(a):
    rng = random.Random(a.seed)
    token = 'powercut-' + sha(str(a.seed).encode())[:24]
    image = f'{a.dir}/state.img'
    os.makedirs(f'{a.dir}/logs', exist_ok=True)
    # inode tables and journal zeroed now: else the guest's ext4lazyinit writes them in the background
    subprocess.run(['mke2fs', '-q', '-F', '-t', 'ext4', '-E', 'lazy_itable_init=0,lazy_journal_init=0',
                    '-d', f'{a.dir}/disk', image, '96M'], check=True)
    config_hash = sha(open(f'{a.dir}/disk/photokiosk/config.toml', 'rb').read())
    known = {}   # sha -> name of every complete payload that may be in the library
    for root in (f'{a.dir}/disk/photokiosk/photos', f'{a.dir}/batches'):
        for dirpath, _, files in os.walk(root):
            for f in files: known[sha(open(os.path.join(dirpath, f), 'rb').read())] = f
    pool = sorted(os.listdir(f'{a.dir}/uploads'))
    for f in pool: known[sha(open(f'{a.dir}/uploads/{f}', 'rb').read())] = f
    acknowledged = {}            # saved name -> sha: answered 201
    settings_acked, settings_sent = None, set()   # interval in force as answered / every one sent
    drag = drag_points()
    last_order, orders_saved, reorder_cycles = None, 0, 0   # the order file after the last cycle
    failures, rows, corrupted = [], [], {}
    t_stage = time.time()
    cycle = 0
    while cycle < a.cycles or (time.time() - t_stage < a.budget and cycle < a.max_cycles):
        if cycle >= a.cycles and time.time() - t_stage > a.budget: break
        log = open(f'{a.dir}/logs/cycle-{cycle:02}.log', 'w')
        g = Guest(a, image, f'pk.phase=cycle pk.batch={cycle} pk.token={token} pk.drag={drag}', log)
        started = g.wait_for('@@PC_STARTED', 90)
        if not started:
            failures.append(f'cycle {cycle}: the kiosk did not start'); g.cut(); break
        t_kiosk = started[0]
        shown = None
        while time.time() - t_kiosk < PHOTO_BOUND:
            if g.photo_on_screen(f'{a.dir}/screen.ppm'): shown = time.time(); break
            time.sleep(0.25)
        if shown is None:
            failures.append(f'cycle {cycle}: no photo on screen within {PHOTO_BOUND:.0f} s of the kiosk\'s start')
            shutil.copy(f'{a.dir}/screen.ppm', f'{a.dir}/logs/cycle-{cycle:02}-no-photo.ppm')
        boot_to_photo = (shown or time.time()) - g.t0
        # the work needs the remote API, which may come up just after the first photo
        serving = time.time() + 30
        while api(g.port, token, 'GET', '/api/status', timeout=5)[0] != 200 and time.time() < serving: time.sleep(0.2)
        # what the cut may interrupt: the batch copy (guest), uploads, settings, the slideshow (here)
        state = {'upload': None, 'settings': None, 'uploads_done': 0}
        stop = threading.Event()
        slideshow_on = rng.random() < 0.6
        corrupt_check = cycle in corrupted
        # the grid reads the cache: before the host damages entries (the resume state then says
        # grid) and in the boot that must find them
        if corrupt_check or cycle % 5 == 2: slideshow_on = False
        order = rng.choice(['sequential', 'shuffle'])
        def note(text):
            if not log.closed: log.write(text)
        drags = lambda: sum('@@PC_REORDER' in l for _, l in list(g.lines))
        def work():
            nonlocal settings_acked
            api(g.port, token, 'POST', '/api/slideshow', json.dumps({'on': slideshow_on}).encode(),
                {'Content-Type': 'application/json'}, timeout=10)
            n = 0
            while not stop.is_set():
                if n % 2 == 1:
                    interval = rng.choice([2, 3, 4, 5])
                    state['settings'] = interval; settings_sent.add(interval)
                    try:
                        status, _ = api(g.port, token, 'PUT', '/api/settings',
                                        json.dumps({'slideshow': {'interval': interval, 'order': order}}).encode(),
                                        {'Content-Type': 'application/json'})
                        if status == 200: settings_acked = interval
                        note(f'host: settings interval={interval}: {status}\n')
                    except OSError: pass
                    state['settings'] = None
                name = pool[rng.randrange(len(pool))]
                data = open(f'{a.dir}/uploads/{name}', 'rb').read()
                body, headers = multipart(name, data)
                state['upload'] = name
                try:
                    status, reply = api(g.port, token, 'POST', '/api/photos', body, headers)
                    note(f'host: upload {name}: {status} {reply[:200]!r}\n')
                    if status == 201:
                        for saved in json.loads(reply)['saved']: acknowledged[saved['name']] = sha(data)
                        state['uploads_done'] += 1
                except OSError: pass
                state['upload'] = None
                if status != 201: time.sleep(0.3)   # refused or cut: not a tight loop
                n += 1
                if not slideshow_on:   # uploads between the drags: a new photo puts a carried thumbnail back
                    begun, t = drags(), time.time()
                    while drags() == begun and not stop.is_set() and time.time() - t < 6: time.sleep(0.05)
                    stop.wait(1.5)   # the drag takes 1.3 s in the guest
        # on the grid, thumbnails are dragged to new places too (a touch would stop a slideshow)
        g.send('go' if slideshow_on else 'go reorder')
        reorder_cycles += not slideshow_on
        worker = threading.Thread(target=work, daemon=True); worker.start()
        cut_after = rng.uniform(0.5, a.window)
        if corrupt_check:   # time for the grid to read its thumbnails (the damaged ones) first
            cut_after += 3.0
        time.sleep(cut_after)
        in_flight = [f'upload {state["upload"]}'] if state['upload'] else []
        if state['settings'] is not None: in_flight.append(f'settings interval={state["settings"]}')
        copied = sum('@@PC_COPIED' in l for _, l in list(g.lines))
        if not any('@@PC_BATCH_DONE' in l for _, l in list(g.lines)): in_flight.append(f'batch copy ({copied}/2 in)')
        in_flight.append('slideshow' if slideshow_on else
                         f'grid, reorders ({drags()} drags begun)')
        cut_ms = int((time.time() - t_kiosk) * 1000)
        g.cut(); stop.set(); worker.join(timeout=30)
        log.close()
        pk_log = open(f'{a.dir}/logs/cycle-{cycle:02}.log').read()
        if corrupt_check:
            reported = [p for p in corrupted[cycle] if 'removing corrupt or outdated thumbnail cache entry' in pk_log and os.path.basename(p) in pk_log]
            if not reported:
                failures.append(f'cycle {cycle}: none of the {len(corrupted[cycle])} damaged cache entries was reported')
        # the card, as the next boot finds it
        fsck = subprocess.run(['e2fsck', '-p', '-E', 'journal_only', image], capture_output=True, text=True)
        check = subprocess.run(['e2fsck', '-fn', image], capture_output=True, text=True)
        if fsck.returncode > 1 or check.returncode != 0:
            failures.append(f'cycle {cycle}: e2fsck after the journal: rc {fsck.returncode}/{check.returncode}: {check.stdout[-400:]}')
        dump = tempfile.mkdtemp(prefix='pc-dump-', dir=a.dir)
        subprocess.run(['debugfs', '-R', f'rdump /photokiosk {dump}', image], capture_output=True, check=True)
        S = f'{dump}/photokiosk'
        problems = []
        photos = {f: open(f'{S}/photos/{f}', 'rb').read() for f in os.listdir(f'{S}/photos') if not f.startswith('.')}
        for f, data in photos.items():
            if sha(data) not in known: problems.append(f'partial or unknown photo visible: {f} ({len(data)} bytes)')
        for name, h in acknowledged.items():
            if name not in photos: problems.append(f'upload {name} answered 201 is missing')
            elif sha(photos[name]) != h: problems.append(f'upload {name} answered 201 differs')
        if os.path.exists(f'{S}/settings.toml'):
            try:
                s = tomllib.loads(open(f'{S}/settings.toml').read())
                iv = s.get('slideshow', {}).get('interval')
                if iv not in settings_sent: problems.append(f'settings.toml holds interval {iv}, never sent')
                if iv != settings_acked and iv != state['settings'] and iv is not None and settings_acked is not None \
                   and iv not in settings_sent:
                    problems.append(f'settings.toml: interval {iv} is neither the old nor the new one')
            except (tomllib.TOMLDecodeError, UnicodeDecodeError) as e: problems.append(f'settings.toml damaged: {e}')
        elif settings_acked is not None: problems.append('settings.toml answered 200 is missing')
        if os.path.exists(f'{S}/resume'):
            p = resume_problem(open(f'{S}/resume', 'rb').read().decode('utf-8', 'replace'))
            if p: problems.append(f'resume state damaged: {p}')
        order = open(f'{S}/order', 'rb').read() if os.path.exists(f'{S}/order') else None
        if order is not None:
            p = order_problem(order)
            if p: problems.append(f'order file damaged: {p}')
            elif order != last_order: orders_saved += 1
        last_order = order
        if sha(open(f'{S}/config.toml', 'rb').read()) != config_hash: problems.append('config.toml changed')
        for p in problems: failures.append(f'cycle {cycle}: {p}')
        # the damaged entries of the last check: written again (rebuilt) since
        if corrupt_check:
            rebuilt = [p for p, bad in corrupted[cycle].items() if os.path.exists(f'{S}/cache/{p}')
                       and open(f'{S}/cache/{p}', 'rb').read() != bad]
        # every few cycles, damage cache entries on the image for the next boot to find
        entries = sorted(f for f in os.listdir(f'{S}/cache') if not f.startswith('.')) if os.path.isdir(f'{S}/cache') else []
        note = ''
        if cycle % 5 == 2 and entries:
            damaged, commands = {}, []
            os.makedirs(f'{dump}/bad')
            for e in entries:
                data = bytearray(open(f'{S}/cache/{e}', 'rb').read())
                if len(data) < 200: continue
                for o in range(len(data) // 2, len(data) // 2 + 64): data[o] ^= 0x5A
                open(f'{dump}/bad/{e}', 'wb').write(data)
                commands += [f'rm /photokiosk/cache/{e}', f'write {dump}/bad/{e} /photokiosk/cache/{e}']
                damaged[e] = bytes(data)
            open(f'{dump}/damage.cmd', 'w').write('\n'.join(commands) + '\n')   # one debugfs for them all
            subprocess.run(['debugfs', '-w', '-f', f'{dump}/damage.cmd', image], capture_output=True, check=True)
            corrupted[cycle + 1] = damaged
            note = f'; damaged {len(damaged)} cache entries for the next boot'
        if corrupt_check: note += f'; damaged entries reported, {len(rebuilt)}/{len(corrupted[cycle])} rewritten'
        shutil.rmtree(dump)
        rows.append((cycle, cut_ms, boot_to_photo, (shown or time.time()) - t_kiosk, in_flight, state['uploads_done']))
        print(f'powercut: cycle {cycle:2}: photo {boot_to_photo:5.1f} s after power-on ({(shown or time.time()) - t_kiosk:4.1f} s after '
              f'the kiosk started); cut at {cut_ms} ms after the kiosk started, in flight: {", ".join(in_flight)}; '
              f'{state["uploads_done"]} upload(s) answered 201; fsck clean; {len(photos)} photos{note}'
              + (f' -- {len(problems)} PROBLEM(S)' if problems else ''), flush=True)
        cycle += 1
    cycles_wall = time.time() - t_stage
    # the writes: a last boot, no cut
    # name order for the figure: a saved custom order (the reorders) puts new photos last, off the
    # grid's first screen, where nothing would thumbnail them
    subprocess.run(['debugfs', '-w', '-R', 'rm /photokiosk/order', image], capture_output=True)
    log = open(f'{a.dir}/logs/writes.log', 'w')
    g = Guest(a, image, f'pk.phase=writes pk.token={token}', log)
    writes = []
    if g.wait_for('@@PC_STARTED', 90):
        time.sleep(8)
        api(g.port, token, 'POST', '/api/slideshow', b'{"on": true}', {'Content-Type': 'application/json'})
        time.sleep(4); g.send('go')
        r = g.wait_for('@@PC_WRITES slideshow', 120)
        api(g.port, token, 'POST', '/api/slideshow', b'{"on": false}', {'Content-Type': 'application/json'})
        g.send('go')
        g.wait_for('@@PC_DONE', 120)
        writes = [l[l.index('@@'):] for _, l in g.lines if '@@PC_WRITES' in l]
    g.cut(); log.close()
    for w in writes: print('powercut:', w)
    fig = {k: int(v) for w in writes for k, v in re.findall(r'(\w+)=(\d+)', w) if 'slideshow' in w and k in ('sectors', 'seconds')}
    if len(writes) < 2: failures.append('the writes were not measured')
    else:
        s = dict(re.findall(r'(\w+)=(\d+)', writes[0])); t = dict(re.findall(r'(\w+)=(\d+)', writes[1]))
        per_hour = int(s['sectors']) * 512 * 3600 / max(1, int(s['seconds']))
        kiosk_bytes = int(t['sectors']) * 512 - int(t['photo_bytes'])
        n = int(t['cache_entries'])
        print(f'powercut: writes in a steady slideshow of cached photos: {int(s["sectors"]) * 512} bytes in {s["seconds"]} s '
              f'= {per_hour / 1e6:.2f} MB/hour')
        if n == 0:   # a large library: the new photos sort past the grid's first screen, nothing drew them
            print(f'powercut: writes for {t["photos"]} new photos listed but not thumbnailed (not on the grid\'s first '
                  f'screen): {int(t["sectors"]) * 512} bytes, of which the photos themselves {t["photo_bytes"]}; no per-thumbnail figure')
        else:
            print(f'powercut: writes for {t["photos"]} new photos thumbnailed ({n} cache entries): '
                  f'{int(t["sectors"]) * 512} bytes, of which the photos themselves {t["photo_bytes"]}; the kiosk\'s own '
                  f'{kiosk_bytes} bytes = {kiosk_bytes / n * 1000 / 1e6:.1f} MB per 1,000 thumbnails (scaled from {n})')
    times = sorted(r[2] for r in rows)
    print(f'powercut: {len(rows)} cycles in {cycles_wall:.0f} s; boot-to-photo (power-on to a photo on screen) '
          f'min {times[0]:.1f} s, median {times[len(times) // 2]:.1f} s, max {times[-1]:.1f} s; bound {PHOTO_BOUND:.0f} s after the kiosk starts'
          if times else 'powercut: no cycle ran')
    print(f'powercut: cut points (ms after the kiosk started): {", ".join(str(r[1]) for r in rows)}')
    print(f'powercut: {len(acknowledged)} uploads answered 201, all present and byte-identical' if not any('upload' in f for f in failures)
          else 'powercut: uploads lost or damaged')
    print(f'powercut: reorders on the grid in {reorder_cycles} cycles; a new order was on the card after {orders_saved} of them; '
          f'every order file whole')
    if not acknowledged: failures.append('no upload was answered 201 before a cut: the cuts tested nothing there')
    if reorder_cycles >= 5 and orders_saved == 0: failures.append('no reorder was saved before a cut: the cuts tested nothing there')
    if len(rows) < a.cycles: failures.append(f'only {len(rows)} cycles (at least {a.cycles})')
    for f in failures: print('powercut: FAIL', f)
    print(f'powercut: {"PASS" if not failures else "FAIL"} ({time.time() - t_stage:.0f} s)')
    return 1 if failures else 0

def main():
    ap = argparse.ArgumentParser()
    sub = ap.add_subparsers(dest='what', required=True)
    p = sub.add_parser('prepare'); p.add_argument('dir'); p.add_argument('--cycles', type=int, default=30)
    q = sub.add_parser('disk'); q.add_argument('dir'); q.add_argument('binary'); q.add_argument('uitouch')
    r = sub.add_parser('run')
    r.add_argument('--kernel', required=True); r.add_argument('--initrd', required=True)
    r.add_argument('--dir', required=True); r.add_argument('--display', default='bochs')
    r.add_argument('--cycles', type=int, default=30, help='at least this many')
    r.add_argument('--max-cycles', type=int, default=30)
    r.add_argument('--budget', type=float, default=420, help='seconds for the cycles')
    r.add_argument('--window', type=float, default=6.0, help='the cut falls this many seconds at most after the photo shows')
    r.add_argument('--seed', type=int, default=SEED)
    a = ap.parse_args()
    if a.what == 'prepare': prepare(a.dir, a.cycles); return 0
    if a.what == 'disk': program_disk(a.dir, a.binary, a.uitouch); return 0
    try: return run(a)
    finally:
        for p in LIVE:
            if p.poll() is None: p.kill(); p.wait()

if __name__ == '__main__':
    sys.exit(main())
