"""A headless kiosk started by a test script: a scratch library for it, a free loopback port and a
token for its remote API, its start with the log in a file and its state in the scratch folder,
and its orderly end."""
import os
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import tempfile


def free_port():
    """A loopback port nothing listens on now."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def scratch_library(prefix, photos, names):
    """A new scratch folder and, in its photos/, copies of `names` from the folder `photos`."""
    work = tempfile.mkdtemp(prefix=prefix)
    library = os.path.join(work, "photos")
    os.mkdir(library)
    for name in names:
        shutil.copy(os.path.join(photos, name), library)
    return work, library


def stop_kiosk(kiosk, timeout=20):
    """SIGTERM, then its exit status; a kiosk that does not end in time is killed and gives None."""
    kiosk.send_signal(signal.SIGTERM)
    try:
        return kiosk.wait(timeout=timeout)
    except subprocess.TimeoutExpired:
        kiosk.kill()
        return None


class Kiosk:
    """`photokiosk run` headless on `library`, its remote API on 127.0.0.1 (`base`, `token`).
    The log goes straight into OUT/kiosk.log: a pipe nobody reads until the end fills up at 64 KB
    and stops the kiosk mid-write. The cache and the settings PUT /api/settings saves
    (XDG_STATE_HOME) stay in the scratch folder `work`, which `end` removes."""

    def __init__(self, binary, library, work, out, size, extra=()):
        self.work, self.out = work, out
        self.token = secrets.token_urlsafe(18)
        self.port = free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        os.makedirs(out, exist_ok=True)
        self.log = open(os.path.join(out, "kiosk.log"), "w")
        self.process = subprocess.Popen(
            [binary, "run", "--display", "headless", "--input", "none", "--size", size,
             "--photos", library, "--cache-dir", os.path.join(work, "cache"), *extra,
             "--remote-listen", f"127.0.0.1:{self.port}",
             # Joined with "=": a token may start with "-" (1 in 64 of token_urlsafe), which as a
             # separate argument reads as an option and the kiosk refuses to start.
             f"--remote-token={self.token}"],
            stdout=self.log, stderr=subprocess.STDOUT, env=dict(os.environ, XDG_STATE_HOME=os.path.join(work, "state")))

    def end(self, name):
        """Stops the kiosk, closes its log and removes the scratch folder; True when it ended with
        status 0, else a line saying how it ended."""
        code = stop_kiosk(self.process)
        self.log.close()
        shutil.rmtree(self.work, ignore_errors=True)
        if code != 0:
            print(f"{name}: the kiosk ended with status {code} (log {self.out}/kiosk.log)")
        return code == 0


def finish(name, ok):
    """The closing line, and the exit status to match."""
    print(f"{name}: PASS" if ok else f"{name}: FAIL")
    sys.exit(0 if ok else 1)
