"""A headless kiosk started by a test script: a free loopback port for it, and its orderly end."""
import signal
import socket
import subprocess


def free_port():
    """A loopback port nothing listens on now."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def stop_kiosk(kiosk, timeout=20):
    """SIGTERM, then its exit status; a kiosk that does not end in time is killed and gives None."""
    kiosk.send_signal(signal.SIGTERM)
    try:
        return kiosk.wait(timeout=timeout)
    except subprocess.TimeoutExpired:
        kiosk.kill()
        return None
