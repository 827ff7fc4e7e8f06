"""One boot of the small x86 guests of the `powercut` and `storage` stages: QEMU/TCG with a
320x200 display, virtio disks, the remote API's port forwarded to the host, and the serial
console's lines collected with the host time they arrived. The stages' own scripts (powercut.py,
storage.py) say what the guest does; this is only how it runs."""
import os, socket, subprocess, threading, time
from harness import QMP, screendump
from pixels import read_ppm

WIDTH, HEIGHT = 320, 200
LIVE = []   # every QEMU started: the stages' main ends them on any way out

def free_port():
    s = socket.socket(); s.bind(('127.0.0.1', 0)); port = s.getsockname()[1]; s.close(); return port

class SerialGuest:
    """drives: (image file, read-only) pairs, /dev/vda first; append: more kernel command line."""
    def __init__(self, a, mode, append, drives, log):
        self.port = free_port()
        self.qmp_path = f'{a.dir}/qmp.sock'
        if os.path.exists(self.qmp_path): os.unlink(self.qmp_path)
        # std (bochs-drm behind legacy VGA) boots as bochs-display: the storage path is the same
        res = {'virtio': f'virtio-gpu-pci,xres={WIDTH},yres={HEIGHT}'}.get(a.display, f'bochs-display,xres={WIDTH},yres={HEIGHT}')
        cmd = ['qemu-system-x86_64', '-accel', 'tcg', '-m', '512', '-smp', '1', '-kernel', a.kernel, '-initrd', a.initrd,
               '-append', f'console=ttyS0 quiet panic=-1 no_timer_check pk.mode={mode} {append}', '-display', 'none',
               '-serial', 'stdio', '-monitor', 'none', '-qmp', f'unix:{self.qmp_path},server=on,wait=off', '-no-reboot',
               '-vga', 'none', '-device', res]
        for image, read_only in drives:
            cmd += ['-drive', f'file={image},if=virtio,format=raw,' + ('readonly=on' if read_only else 'cache=writeback')]
        cmd += ['-netdev', f'user,id=n0,hostfwd=tcp:127.0.0.1:{self.port}-:8080', '-device', 'virtio-net-pci,netdev=n0,romfile=']
        self.t0 = time.time()
        self.p = subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
        LIVE.append(self.p)
        self.qmp = QMP(self.qmp_path)
        self.lines, self.log = [], log
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self):
        buf = b''
        while True:
            chunk = os.read(self.p.stdout.fileno(), 65536)
            if not chunk: return
            buf += chunk
            while b'\n' in buf:
                raw, buf = buf.split(b'\n', 1)
                line = raw.decode('utf-8', 'replace').rstrip('\r')
                self.lines.append((time.time(), line))
                self.log.write(f'{time.time() - self.t0:7.2f} {line}\n'); self.log.flush()

    def mark(self): return len(self.lines)
    def lines_since(self, since): return [l for _, l in list(self.lines)[since:]]

    def wait_for(self, tag, timeout, since=0):
        """(time, line) of the first console line at or after `since` holding tag; None when the
        time runs out or QEMU ended."""
        end = time.time() + timeout
        while time.time() < end:
            for t, line in list(self.lines)[since:]:
                if tag in line: return t, line
            if self.p.poll() is not None: return None
            time.sleep(0.05)
        return None

    def send(self, text):
        try: self.p.stdin.write(text.encode() + b'\n'); self.p.stdin.flush()
        except BrokenPipeError: pass

    def cut(self):
        """The power goes: QEMU ends at once; nothing the guest has not written to the disk survives."""
        try: self.qmp.cmd('quit')
        except OSError: pass
        try: self.p.wait(timeout=10)
        except subprocess.TimeoutExpired: self.p.kill(); self.p.wait()

    def photo_on_screen(self, ppm):
        if 'error' in screendump(self.qmp, ppm) or not os.path.exists(ppm): return False
        w, h, px = read_ppm(ppm)
        colours = {px[o:o + 3] for o in range(0, len(px), 3 * 7)}
        return len(colours) > 200   # a photo's ramps, not an empty screen or a line of text
