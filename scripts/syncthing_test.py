"""Syncthing as the phone's way in (issue 34 items 3 and 5), against two real Syncthing instances on
loopback: one stands for the phone (a send-only camera folder), the other for the frame (a
receive-only folder inside the library of a headless kiosk). Each has its own home in a scratch
folder, made by `syncthing generate`; global discovery, relays, NAT, local discovery, usage
reports and upgrades are off, and each listens on a loopback port only.

Checked, each within a bounded wait, through the kiosk's own remote API (GET /api/photos):
  first sync of a few hundred photos; add, delete and rename on the phone; a conflict file never
  listed; a big photo cut half way (the phone's Syncthing killed mid-transfer) never listed while
  only Syncthing's temporary file is there, and listed once the phone comes back and it finishes;
  Syncthing's own view of the frame (idle / syncing / phone disconnected) at each of those moments.
Measured: the frame's Syncthing resident memory (peak VmHWM and the last VmRSS) over the first sync.
"""
import argparse
import json
import os
import random
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.parse
import urllib.request
import xml.etree.ElementTree as ET

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from kiosk_process import Kiosk, finish, free_port  # noqa: E402

FOLDER = "camera"


class Syncthing:
    """One Syncthing instance with its own home, REST API on a loopback port, sync port on loopback."""

    def __init__(self, name, home, out):
        self.name, self.home, self.out = name, home, out
        self.gui_port, self.sync_port = free_port(), free_port()
        generated = subprocess.run(["syncthing", "generate", "--home", home, "--no-default-folder",
                                    "--skip-port-probing"], stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                                   text=True, check=True)
        self.device_id = next(line.split("Device ID:", 1)[1].strip() for line in generated.stdout.splitlines()
                              if "Device ID:" in line)
        config = os.path.join(home, "config.xml")
        tree = ET.parse(config)
        root = tree.getroot()
        gui = root.find("gui")
        gui.find("address").text = f"127.0.0.1:{self.gui_port}"
        self.api_key = gui.find("apikey").text
        options = root.find("options")
        settings = {"listenAddress": f"tcp://127.0.0.1:{self.sync_port}", "globalAnnounceEnabled": "false",
                    "localAnnounceEnabled": "false", "relaysEnabled": "false", "natEnabled": "false",
                    "startBrowser": "false", "urAccepted": "-1", "autoUpgradeIntervalH": "0",
                    "crashReportingEnabled": "false", "reconnectionIntervalS": "1",
                    "progressUpdateIntervalS": "1",
                    # loopback counts as LAN: without this a device's rate limit does not apply
                    "limitBandwidthInLan": "true"}
        for key, value in settings.items():
            options.find(key).text = value
        tree.write(config)
        self.base = f"http://127.0.0.1:{self.gui_port}"
        self.log_path = os.path.join(out, f"syncthing-{name}.log")
        self.process = None

    def start(self):
        self.log = open(self.log_path, "a")
        self.process = subprocess.Popen(
            ["syncthing", "serve", "--home", self.home, "--no-browser", "--no-restart", "--no-upgrade",
             "--logflags=2"], stdout=self.log, stderr=subprocess.STDOUT,
            env=dict(os.environ, STNODEFAULTFOLDER="1", STNOUPGRADE="1"))
        wait_for(lambda: self.get("/rest/system/ping") is not None, 30, f"{self.name}'s Syncthing answers")

    def worker(self):
        """The process that syncs: `syncthing serve` starts itself again under a monitor process
        (even with --no-restart, in 1.19), which only waits for it."""
        for entry in os.listdir("/proc"):
            if not entry.isdigit():
                continue
            try:
                with open(f"/proc/{entry}/stat") as stat:
                    fields = stat.read().rsplit(")", 1)[1].split()
            except OSError:
                continue
            if int(fields[1]) == self.process.pid:
                return int(entry)
        return None

    def kill(self):
        """SIGKILL to the worker: a phone that goes away mid-transfer, without a goodbye (the
        monitor then ends too, as --no-restart asks)."""
        worker = self.worker()
        if worker:
            os.kill(worker, signal.SIGKILL)
        self.process.wait(timeout=10)
        self.log.close()

    def stop(self):
        if self.process and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
            self.log.close()

    def request(self, method, path, body=None):
        data = None if body is None else json.dumps(body).encode()
        request = urllib.request.Request(self.base + path, data=data, method=method,
                                         headers={"X-API-Key": self.api_key, "Content-Type": "application/json"})
        with urllib.request.urlopen(request, timeout=5) as response:
            text = response.read()
            return json.loads(text) if text else {}

    def get(self, path):
        try:
            return self.request("GET", path)
        except (urllib.error.URLError, ConnectionError, TimeoutError, json.JSONDecodeError):
            return None

    def add_device(self, other):
        self.request("POST", "/rest/config/devices", {
            "deviceID": other.device_id, "name": other.name,
            "addresses": [f"tcp://127.0.0.1:{other.sync_port}"]})

    def add_folder(self, path, kind, other):
        self.request("POST", "/rest/config/folders", {
            "id": FOLDER, "label": "Camera", "path": path, "type": kind,
            "devices": [{"deviceID": self.device_id}, {"deviceID": other.device_id}],
            "fsWatcherEnabled": True, "fsWatcherDelayS": 1, "rescanIntervalS": 3600})

    def scan(self):
        self.request("POST", f"/rest/db/scan?folder={FOLDER}")

    def folder_state(self):
        status = self.get(f"/rest/db/status?folder={FOLDER}")
        return status or {}

    def connected(self, other):
        connections = self.get("/rest/system/connections") or {}
        return connections.get("connections", {}).get(other.device_id, {}).get("connected", False)

    def memory(self):
        """(VmHWM, VmRSS) in KiB from /proc: the worker's and the monitor's together, as a
        systemd unit running it would count them."""
        peak = rss = 0
        for pid in (self.process.pid, self.worker()):
            if pid is None:
                continue
            with open(f"/proc/{pid}/status") as status:
                for line in status:
                    key, _, rest = line.partition(":")
                    if key == "VmHWM":
                        peak += int(rest.split()[0])
                    elif key == "VmRSS":
                        rss += int(rest.split()[0])
        return peak, rss

    def worker_memory(self):
        """The worker's (VmHWM, VmRSS) in KiB alone."""
        values, worker = {}, self.worker()
        if worker is None:
            return 0, 0
        with open(f"/proc/{worker}/status") as status:
            for line in status:
                key, _, rest = line.partition(":")
                if key in ("VmHWM", "VmRSS"):
                    values[key] = int(rest.split()[0])
        return values.get("VmHWM", 0), values.get("VmRSS", 0)


class Failure(Exception):
    pass


def wait_for(condition, seconds, what):
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if condition():
            return
        time.sleep(0.2)
    raise Failure(f"not within {seconds} s: {what}")


def kiosk_sync_state(kiosk):
    """The kiosk's own view of its Syncthing (GET /api/status, "syncthing"), or None."""
    request = urllib.request.Request(f"{kiosk.base}/api/status", headers={"Authorization": f"Bearer {kiosk.token}"})
    try:
        with urllib.request.urlopen(request, timeout=5) as response:
            return json.load(response).get("syncthing")
    except (urllib.error.URLError, ConnectionError, TimeoutError, ValueError):
        return None


def kiosk_says(kiosk, state):
    sync = kiosk_sync_state(kiosk)
    return sync is not None and sync.get("state") == state


def kiosk_names(kiosk):
    """Every photo path the kiosk's library lists (all pages)."""
    names, page = [], 1
    while True:
        request = urllib.request.Request(f"{kiosk.base}/api/photos?page={page}&per_page=500",
                                         headers={"Authorization": f"Bearer {kiosk.token}"})
        try:
            with urllib.request.urlopen(request, timeout=5) as response:
                body = json.load(response)
        except (urllib.error.URLError, ConnectionError, TimeoutError):
            return None
        photos = body.get("photos", [])
        names += [p.get("name") or p.get("path") for p in photos]
        if len(photos) < 500:
            return names
        page += 1


def unique_photo(sources, index, rng):
    """A real JPEG from the assets with a tail of random bytes after its end marker: every copy
    has its own content, so Syncthing transfers each one rather than copying known blocks."""
    with open(sources[index % len(sources)], "rb") as photo:
        data = photo.read()
    return data + rng.randbytes(20_000 + rng.randrange(60_000))


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--binary", required=True)
    parser.add_argument("--photos", required=True)
    parser.add_argument("--out", required=True)
    parser.add_argument("--count", type=int, default=200)
    args = parser.parse_args()
    os.makedirs(args.out, exist_ok=True)
    started = time.monotonic()
    rng = random.Random(34)
    work = tempfile.mkdtemp(prefix="photokiosk-syncthing-")
    camera = os.path.join(work, "phone", "DCIM")
    library = os.path.join(work, "library")
    received = os.path.join(library, "Phone")
    os.makedirs(camera)
    os.makedirs(received)
    sources = sorted(os.path.join(args.photos, n) for n in os.listdir(args.photos) if n.lower().endswith(".jpg"))
    for index in range(args.count):
        with open(os.path.join(camera, f"IMG_{index:04d}.jpg"), "wb") as out:
            out.write(unique_photo(sources, index, rng))

    phone = Syncthing("phone", os.path.join(work, "phone-home"), args.out)
    frame = Syncthing("frame", os.path.join(work, "frame-home"), args.out)
    # The kiosk asks the frame's Syncthing itself ([syncthing], every 5 s) and shows it in /api/status.
    key_file = os.path.join(work, "syncthing-api-key")
    with open(key_file, "w") as out:
        out.write(frame.api_key + "\n")
    os.chmod(key_file, 0o600)
    kiosk = Kiosk(args.binary, library, os.path.join(work, "kiosk"), args.out, "640x400",
                  extra=["--syncthing", "--syncthing-api-address", f"http://127.0.0.1:{frame.gui_port}",
                         "--syncthing-api-key-file", key_file, "--syncthing-folder-id", FOLDER])
    ok = False
    try:
        phone.start()
        frame.start()
        phone.add_device(frame)
        frame.add_device(phone)
        phone.add_folder(camera, "sendonly", frame)
        frame.add_folder(received, "receiveonly", phone)
        print(f"syncthing: phone {phone.device_id[:7]} (send-only {FOLDER}), frame {frame.device_id[:7]}"
              f" (receive-only into the library's Phone/), both on 127.0.0.1 only")

        def kiosk_has(expected, absent=()):
            names = kiosk_names(kiosk)
            if names is None:
                return False
            listed = {os.path.basename(n) for n in names}
            return set(expected) <= listed and not (set(absent) & listed)

        def in_sync():
            state = frame.folder_state()
            return (state.get("state") == "idle" and state.get("needFiles", 1) == 0
                    and state.get("globalFiles") == state.get("localFiles"))

        # First sync, with the frame's memory sampled.
        peak, rss, worker_peak, t0 = 0, 0, 0, time.monotonic()
        expected = [f"IMG_{i:04d}.jpg" for i in range(args.count)]

        def first_sync_done():
            nonlocal peak, rss, worker_peak
            peak, rss = frame.memory()
            worker_peak = max(worker_peak, frame.worker_memory()[0])
            state = frame.folder_state()
            return state.get("globalFiles") == args.count and in_sync()
        wait_for(first_sync_done, 90, f"the frame receives {args.count} photos")
        synced = time.monotonic() - t0
        wait_for(lambda: kiosk_has(expected), 30, f"the kiosk lists the {args.count} photos")
        listed = time.monotonic() - t0
        size = sum(os.path.getsize(os.path.join(camera, n)) for n in os.listdir(camera))
        print(f"syncthing: first sync {args.count} photos ({size / 1e6:.1f} MB) in {synced:.1f} s, "
              f"in the kiosk's grid after {listed:.1f} s; frame's syncthing RSS peak {peak / 1024:.1f} MiB "
              f"(worker {worker_peak / 1024:.1f} MiB, monitor the rest), {rss / 1024:.1f} MiB at the end")
        print(f"syncthing: frame status in sync: {json.dumps(status_summary(frame, phone))}")
        wait_for(lambda: kiosk_says(kiosk, "in-sync"), 15, "the kiosk's /api/status says in sync")
        print(f"syncthing: kiosk's own status: {json.dumps(kiosk_sync_state(kiosk))}")

        # Add, delete, rename on the phone.
        with open(os.path.join(camera, "IMG_new.jpg"), "wb") as out:
            out.write(unique_photo(sources, 1, rng))
        os.remove(os.path.join(camera, "IMG_0000.jpg"))
        os.rename(os.path.join(camera, "IMG_0001.jpg"), os.path.join(camera, "Renamed_0001.jpg"))
        t0 = time.monotonic()
        phone.scan()
        wait_for(lambda: kiosk_has(["IMG_new.jpg", "Renamed_0001.jpg"], ["IMG_0000.jpg", "IMG_0001.jpg"]), 30,
                 "add, delete and rename on the phone reach the kiosk")
        print(f"syncthing: add, delete, rename on the phone in the kiosk's grid after {time.monotonic() - t0:.1f} s")

        # A conflict copy made on the phone side travels like any file; the kiosk never lists it.
        conflict = "IMG_0002.sync-conflict-20250102-030405-ABCDEFG.jpg"
        with open(os.path.join(camera, conflict), "wb") as out:
            out.write(unique_photo(sources, 2, rng))
        with open(os.path.join(camera, "IMG_after_conflict.jpg"), "wb") as out:
            out.write(unique_photo(sources, 3, rng))
        phone.scan()
        wait_for(lambda: os.path.exists(os.path.join(received, conflict)) and kiosk_has(["IMG_after_conflict.jpg"]),
                 30, "the conflict file and the photo after it reach the frame")
        if not kiosk_has([], [conflict]):
            raise Failure("the kiosk lists the conflict file")
        print("syncthing: conflict file on the frame's disk, not in the kiosk's grid")

        # A big photo cut half way: the phone sends slowly, and is killed mid-transfer.
        big = "IMG_big.jpg"
        with open(os.path.join(camera, big), "wb") as out:
            out.write(unique_photo(sources, 4, rng) + rng.randbytes(24_000_000))
        # Syncthing's maxSendKbps is in KiB/s despite its name ("send rate limit is 4000 KiB/s" in
        # its log): 500 KiB/s makes 24 MB take about 50 s. At 4000 the photo arrived in about 6 s
        # and, on a loaded machine, before the phone was killed (CI run of 2026-12-06 afternoon).
        phone.request("PATCH", f"/rest/config/devices/{frame.device_id}", {"maxSendKbps": 500})
        wait_for(lambda: phone.connected(frame), 30, "the phone reconnects after its rate limit")
        phone.scan()
        temporary = os.path.join(received, f".syncthing.{big}.tmp")
        saw_syncing = []

        def half_way():
            state = frame.folder_state()
            if state.get("state") == "syncing":
                saw_syncing.append(status_summary(frame, phone))
            return os.path.exists(temporary) and os.path.getsize(temporary) > 0
        wait_for(half_way, 30, "the frame starts receiving the big photo")
        # 24 MB at 500 KiB/s take about 50 s: time for the kiosk's next poll to see it coming.
        wait_for(lambda: kiosk_says(kiosk, "syncing"), 15, "the kiosk's /api/status says syncing")
        kiosk_syncing = kiosk_sync_state(kiosk)
        time.sleep(1.5)
        phone.kill()
        wait_for(lambda: not frame.connected(phone), 30, "the frame sees the phone gone")
        # the temporary file has the full length at once; its allocated blocks are what came
        partial = os.stat(temporary).st_blocks * 512 if os.path.exists(temporary) else 0
        disconnected = status_summary(frame, phone)
        wait_for(lambda: kiosk_says(kiosk, "phone-not-connected"), 15, "the kiosk's /api/status says the phone is gone")
        kiosk_gone = kiosk_sync_state(kiosk)
        time.sleep(2)  # time for the kiosk to hear anything it would wrongly show
        if os.path.exists(os.path.join(received, big)):
            raise Failure("the big photo is complete on the frame although the phone was killed mid-transfer")
        if not kiosk_has([], [big, f".syncthing.{big}.tmp"]):
            raise Failure("the kiosk lists the half-received photo")
        print(f"syncthing: phone killed mid-transfer; frame holds {partial / 1e6:.1f} MB of "
              f"{os.path.getsize(os.path.join(camera, big)) / 1e6:.1f} MB in the temporary file, "
              f"the kiosk lists neither it nor {big}")
        if saw_syncing:
            print(f"syncthing: frame status while syncing: {json.dumps(saw_syncing[-1])}")
        print(f"syncthing: frame status, phone gone: {json.dumps(disconnected)}")
        print(f"syncthing: kiosk's own status while syncing: {json.dumps(kiosk_syncing)}; phone gone: {json.dumps(kiosk_gone)}")
        phone.start()
        phone.request("PATCH", f"/rest/config/devices/{frame.device_id}", {"maxSendKbps": 0})
        t0 = time.monotonic()
        wait_for(lambda: kiosk_has([big]), 60, "the big photo finishes and shows once the phone is back")
        wait_for(in_sync, 30, "the frame in sync again")
        wait_for(lambda: kiosk_says(kiosk, "in-sync"), 15, "the kiosk's /api/status says in sync again")
        print(f"syncthing: phone back; {big} complete and in the kiosk's grid after {time.monotonic() - t0:.1f} s")
        print(f"syncthing: frame status in sync: {json.dumps(status_summary(frame, phone))}")
        ok = True
    except (Failure, subprocess.CalledProcessError, OSError) as error:
        print(f"syncthing: {error} (logs in {args.out})")
    finally:
        phone.stop()
        frame.stop()
        ok = kiosk.end("syncthing") and ok
        shutil.rmtree(work, ignore_errors=True)
    print(f"syncthing: {time.monotonic() - started:.0f} s in all")
    finish("syncthing", ok)


def status_summary(frame, phone):
    state = frame.folder_state()
    return {"state": state.get("state"), "needFiles": state.get("needFiles"), "needBytes": state.get("needBytes"),
            "globalFiles": state.get("globalFiles"), "localFiles": state.get("localFiles"),
            "phone_connected": frame.connected(phone)}


if __name__ == "__main__":
    main()
