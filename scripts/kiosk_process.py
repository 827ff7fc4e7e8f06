"""A headless kiosk started by a test script: a free loopback port for it, its start with the log
in a file and its state in the scratch folder, and its orderly end."""
import os
import shutil
import signal
import socket
import subprocess


def free_port():
    """A loopback port nothing listens on now."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def start_kiosk(binary, library, work, out, port, token, size, extra=()):
    """`photokiosk run` headless on `library`, its remote API on 127.0.0.1:`port`; returns the
    process and its open log file (OUT/kiosk.log). The log goes straight into the file: a pipe
    nobody reads until the end fills up at 64 KB and stops the kiosk mid-write. The cache and the
    settings that PUT /api/settings saves (XDG_STATE_HOME) stay in the scratch folder `work`."""
    os.makedirs(out, exist_ok=True)
    log = open(os.path.join(out, "kiosk.log"), "w")
    kiosk = subprocess.Popen([binary, "run", "--display", "headless", "--input", "none", "--size", size,
                              "--photos", library, "--cache-dir", os.path.join(work, "cache"), *extra,
                              "--remote-listen", f"127.0.0.1:{port}", "--remote-token", token],
                             stdout=log, stderr=subprocess.STDOUT,
                             env=dict(os.environ, XDG_STATE_HOME=os.path.join(work, "state")))
    return kiosk, log


def stop_kiosk(kiosk, timeout=20):
    """SIGTERM, then its exit status; a kiosk that does not end in time is killed and gives None."""
    kiosk.send_signal(signal.SIGTERM)
    try:
        return kiosk.wait(timeout=timeout)
    except subprocess.TimeoutExpired:
        kiosk.kill()
        return None


def end_kiosk(kiosk, log, work):
    """Stops the kiosk, closes its log and removes the scratch folder; returns the exit status
    (`stop_kiosk`)."""
    code = stop_kiosk(kiosk)
    log.close()
    shutil.rmtree(work, ignore_errors=True)
    return code
