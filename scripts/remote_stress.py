#!/usr/bin/env python3
"""The remote stress stage (see remote-stress.sh): standard library only."""
import argparse, http.client, json, multiprocessing, os, random, secrets, socket, threading, time

from kiosk_process import Kiosk, finish, scratch_library

lock = threading.Lock()
counts = {}            # kind -> number of requests
statuses = {}          # status code -> number
errors = []            # unexpected outcomes (bounded)
status_latencies = []  # seconds, every /api/status answered
screens = [0, 0]       # screen.png answered, asked


def note(kind, status=None, problem=None):
    with lock:
        counts[kind] = counts.get(kind, 0) + 1
        if status is not None:
            statuses[status] = statuses.get(status, 0) + 1
        if problem and len(errors) < 50:
            errors.append(f"{kind}: {problem}")


def request(port, source, method, path, token=None, body=None, headers=None, timeout=10):
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=timeout, source_address=(source, 0))
    try:
        all_headers = dict(headers or {})
        if token:
            all_headers["Authorization"] = "Bearer " + token
        connection.request(method, path, body=body, headers=all_headers)
        reply = connection.getresponse()
        return reply.status, reply.read()
    finally:
        connection.close()


def multipart(name, data):
    boundary = "stress" + secrets.token_hex(8)
    body = (f"--{boundary}\r\nContent-Disposition: form-data; name=\"photo\"; filename=\"{name}\"\r\n"
            f"Content-Type: image/jpeg\r\n\r\n").encode() + data + f"\r\n--{boundary}--\r\n".encode()
    return body, {"Content-Type": f"multipart/form-data; boundary={boundary}"}


def worker(kind, index, port, token, deadline, photo):
    source = f"127.0.{10 + index // 200}.{2 + index % 200}"
    rng = random.Random(index)
    while time.monotonic() < deadline:
        try:
            if kind == "status":
                started = time.monotonic()
                status, _ = request(port, source, "GET", "/api/status", token, timeout=5)
                with lock:
                    status_latencies.append(time.monotonic() - started)
                note(kind, status, None if status == 200 else f"status {status}")
                time.sleep(0.02)
            elif kind == "screen":
                with lock:
                    screens[1] += 1
                status, png = request(port, source, "GET", "/api/screen.png", token, timeout=10)
                ok = status == 200 and png.startswith(b"\x89PNG")
                if ok:
                    with lock:
                        screens[0] += 1
                note(kind, status, None if ok else f"status {status}")
                time.sleep(0.2)
            elif kind == "upload":
                name = f"stress-{index}-{rng.randrange(1 << 30)}.jpg"
                body, headers = multipart(name, photo)
                status, reply = request(port, source, "POST", "/api/photos", token, body, headers, timeout=20)
                note(kind, status, None if status == 201 else f"status {status}: {reply[:200]!r}")
                if status == 201:
                    url = json.loads(reply)["saved"][0]["url"]
                    status, reply = request(port, source, "DELETE", url, token, headers={"Content-Type": "application/json"})
                    note("delete", status, None if status == 200 else f"status {status}: {reply[:200]!r}")
                time.sleep(0.3)   # a phone's pace, six phones at once: the library churns, it is not flooded
            elif kind == "badtoken":
                status, _ = request(port, source, "GET", "/api/status", "wrong-" + secrets.token_hex(8), timeout=15)
                note(kind, status, None if status in (401, 429) else f"status {status}")
            elif kind == "cut":
                # An upload's first half, then the connection closes.
                body, headers = multipart(f"cut-{index}.jpg", photo)
                head = (f"POST /api/photos HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer {token}\r\n"
                        f"Content-Type: {headers['Content-Type']}\r\nContent-Length: {len(body)}\r\n\r\n").encode()
                with socket.create_connection(("127.0.0.1", port), timeout=5, source_address=(source, 0)) as s:
                    s.sendall(head + body[: len(body) // 2])
                    time.sleep(rng.uniform(0.05, 0.5))
                note(kind)
            elif kind == "idle":
                # Connects, says nothing, and goes (or is cut off at the header deadline).
                with socket.create_connection(("127.0.0.1", port), timeout=5, source_address=(source, 0)) as s:
                    time.sleep(rng.uniform(0.5, 3))
                note(kind)
        except (OSError, http.client.HTTPException) as error:
            # A refused or cut connection is how the server sheds load (per-address cap); counted.
            note(kind + "-connection-error", None, None if kind in ("idle", "cut", "badtoken") else repr(error))


def probe_status(port, token, deadline, sources, results):
    """In its own process (no lock shared with the load's threads), so the figures are the
    server's, not this script's: GET /api/status every 20 ms from each source; latencies out."""
    latencies, failures = [], []

    def poll(source):
        while time.monotonic() < deadline:
            started = time.monotonic()
            try:
                status, _ = request(port, source, "GET", "/api/status", token, timeout=5)
                if status == 200:
                    latencies.append(time.monotonic() - started)
                else:
                    failures.append(f"status {status}")
            except (OSError, http.client.HTTPException) as error:
                failures.append(repr(error))
            time.sleep(0.02)

    threads = [threading.Thread(target=poll, args=(source,)) for source in sources]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    results.put((latencies, failures[:20]))


def main():
    parser = argparse.ArgumentParser()
    for name in ["binary", "photos", "out"]:
        parser.add_argument("--" + name, required=True)
    parser.add_argument("--seconds", type=float, default=60)
    args = parser.parse_args()
    jpegs = sorted(f for f in os.listdir(args.photos) if f.lower().endswith(".jpg"))
    work, library = scratch_library("photokiosk-stress-", args.photos, jpegs[:6])
    with open(os.path.join(args.photos, jpegs[0]), "rb") as f:
        photo = f.read()
    kiosk = Kiosk(args.binary, library, work, args.out, "640x400", ["--interval", "2"])
    port, token = kiosk.port, kiosk.token
    ok = True
    try:
        for _ in range(300):
            try:
                if request(port, "127.0.0.1", "GET", "/api/status", token)[0] == 200:
                    break
            except OSError:
                pass
            time.sleep(0.1)
        request(port, "127.0.0.1", "POST", "/api/slideshow", token, b'{"on": true}', {"Content-Type": "application/json"})
        mix = {"status": 8, "screen": 3, "upload": 6, "badtoken": 4, "cut": 4, "idle": 6}
        deadline = time.monotonic() + args.seconds
        threads, index = [], 0
        for kind, n in mix.items():
            for _ in range(n):
                threads.append(threading.Thread(target=worker, args=(kind, index, port, token, deadline, photo), daemon=True))
                index += 1
        photos_seen = set()
        started = time.monotonic()
        probe_results = multiprocessing.Queue()
        probe = multiprocessing.Process(target=probe_status, args=(port, token, deadline, ["127.0.9.2", "127.0.9.3"], probe_results))
        probe.start()
        # The load runs at a lower priority than the kiosk and the probe: on a frame the attackers'
        # CPUs are their own, here they share the kiosk's two cores, and a Python load unniced
        # measures the interpreter's scheduling (p99 121 ms at load 10), not the kiosk's answer.
        os.nice(10)
        for t in threads:
            t.start()
        while time.monotonic() < deadline:
            try:
                status, body = request(port, "127.0.0.1", "GET", "/api/status", token, timeout=5)
                if status == 200:
                    photos_seen.add(json.loads(body)["photo"])
            except OSError:
                pass
            time.sleep(0.5)
        for t in threads:
            t.join(timeout=30)
        probed, probe_failures = probe_results.get(timeout=60)
        probe.join(timeout=10)
        took = time.monotonic() - started
        # Cut uploads' temporary files go when the server sees the close (at most the idle timeout).
        leftovers = []
        for _ in range(40):
            leftovers = [n for n in os.listdir(library) if n.startswith(".upload-")]
            if not leftovers:
                break
            time.sleep(0.5)
        alive = kiosk.process.poll() is None and request(port, "127.0.0.1", "GET", "/api/status", token)[0] == 200
        def percentile(values, fraction):
            values = sorted(values)
            return values[int(fraction * (len(values) - 1))] if values else float("inf")
        p50, p99 = percentile(probed, 0.5), percentile(probed, 0.99)
        loaded_p99 = percentile(status_latencies, 0.99)
        total = sum(counts.values())
        server_errors = sum(n for s, n in statuses.items() if s >= 500)
        print(f"remote stress: {total} requests/connections in {took:.0f} s from {index} clients on {index} loopback addresses: "
              + ", ".join(f"{k} {v}" for k, v in sorted(counts.items())))
        print(f"remote stress: answers by status: " + ", ".join(f"{s}: {n}" for s, n in sorted(statuses.items())))
        print(f"remote stress: status latency p50 {p50 * 1000:.1f} ms, p99 {p99 * 1000:.1f} ms over {len(probed)} answers "
              f"to the probe ({len(probe_failures)} failed); the load's own status clients (timed inside this busy script) "
              f"p99 {loaded_p99 * 1000:.1f} ms over {len(status_latencies)}; "
              f"screen.png {screens[0]} of {screens[1]}; slideshow showed {len(photos_seen)} photos; "
              f"temporary files left: {len(leftovers)}")
        checks = [
            ("the kiosk still answers", alive),
            ("status p99 under 100 ms", p99 < 0.1 and len(probed) > 100 and not probe_failures),
            ("no 5xx", server_errors == 0),
            ("screen.png answered throughout", screens[1] > 0 and screens[0] == screens[1]),
            ("the slideshow kept moving (the kiosk kept drawing)", len(photos_seen) >= 3),
            ("no temporary upload file left", not leftovers),
            ("no unexpected answer", not errors),
        ]
        for name, passed in checks:
            print(("ok    " if passed else "FAIL  ") + name)
            ok = ok and passed
        for error in errors[:20]:
            print("  " + error)
    finally:
        ok = kiosk.end("FAIL  remote stress") and ok
    finish("remote stress", ok)


main()
