#!/usr/bin/env python3
"""Runs schemathesis against a live headless kiosk (see remote-schemathesis.sh)."""
import argparse, json, os, shutil, subprocess, time, urllib.error, urllib.request

from kiosk_process import Kiosk, finish, scratch_library

CHECKS = "not_a_server_error,status_code_conformance,content_type_conformance,response_schema_conformance"



def status(base, token):
    request = urllib.request.Request(base + "/api/status", headers={"Authorization": "Bearer " + token})
    try:
        with urllib.request.urlopen(request, timeout=5) as reply:
            return reply.status, json.loads(reply.read())
    except (OSError, urllib.error.HTTPError, ValueError) as error:
        return None, str(error)


def run_st(args, base, token, report, extra):
    """One schemathesis run; (exit status, operations, examples, failures) from its NDJSON report."""
    command = [args.st, "run", args.spec, "--url", base, "-H", f"Authorization: Bearer {token}",
               "--checks", CHECKS, "--request-timeout", "20", "--workers", "1", "--seed", "31",
               "--suppress-health-check", "all", "--report", "ndjson", "--report-ndjson-path", report,
               "--no-color"] + extra
    print("$", " ".join(c if "Bearer" not in c else "-H 'Authorization: Bearer …'" for c in command), flush=True)
    result = subprocess.run(command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, cwd=args.out)
    log = result.stdout
    with open(report + ".log", "w") as f:
        f.write(log)
    print("\n".join(log.splitlines()[-40:]))
    operations, examples = set(), 0
    with open(report) as f:
        for line in f:
            event = json.loads(line)
            for kind, body in event.items():
                if kind == "ScenarioFinished" and isinstance(body, dict):
                    recorder = body.get("recorder") or {}
                    label = recorder.get("label")
                    if label:
                        operations.add(label)
                    examples += len(recorder.get("cases") or {})
    return result.returncode, operations, examples


def main():
    parser = argparse.ArgumentParser()
    for name in ["binary", "photos", "spec", "st", "out"]:
        parser.add_argument("--" + name, required=True)
    args = parser.parse_args()
    with open(args.spec) as f:
        spec = json.load(f)
    listed = {f"{method.upper()} {path}" for path, item in spec["paths"].items() for method in item}

    photos = [name for name in sorted(os.listdir(args.photos))[:5] if name.lower().endswith((".jpg", ".jpeg", ".png"))]
    work, library = scratch_library("photokiosk-schemathesis-", args.photos, photos)
    kiosk = Kiosk(args.binary, library, work, args.out, "320x240")
    base, token = kiosk.base, kiosk.token
    ok = True
    try:
        for _ in range(300):
            code, _ = status(base, token)
            if code == 200:
                break
            time.sleep(0.1)
        started = time.monotonic()
        # /login on its own and briefly: its failures are slowed down (1, 2, 4 ... 10 s) by design.
        rc_main, ops_main, ex_main = run_st(args, base, token, os.path.join(args.out, "main.ndjson"),
                                            ["--exclude-path", "/login", "--max-examples", "40", "--max-time", "90"])
        rc_login, ops_login, ex_login = run_st(args, base, token, os.path.join(args.out, "login.ndjson"),
                                               ["--include-path", "/login", "--max-examples", "4", "--phases", "coverage,fuzzing"])
        took = time.monotonic() - started
        extra = (ops_main | ops_login) - listed   # stateful scenarios' labels name chains of operations
        operations = (ops_main | ops_login) & listed
        examples = ex_main + ex_login
        code, body = status(base, token)
        alive = kiosk.process.poll() is None and code == 200
        if not alive and kiosk.process.poll() is None and shutil.which("gdb"):
            # Where the kiosk is stuck, for the report.
            trace = subprocess.run(["gdb", "-p", str(kiosk.process.pid), "-batch", "-ex", "thread apply all bt 12"],
                                   stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True).stdout
            with open(os.path.join(args.out, "stuck-backtrace.txt"), "w") as f:
                f.write(trace)
            print(f"schemathesis: the kiosk does not answer; its threads are in {args.out}/stuck-backtrace.txt")
        missing = sorted(listed - operations)
        print(f"schemathesis: {len(operations)} of {len(listed)} operations, {examples} examples (with {len(extra)} stateful chains) in {took:.0f} s; "
              f"exit {rc_main}/{rc_login}; kiosk {'still answers' if alive else 'DOWN: ' + str(body)}")
        if missing:
            print("schemathesis: operations not run: " + ", ".join(missing))
        ok = rc_main == 0 and rc_login == 0 and alive and not missing and examples > 0
    finally:
        ok = kiosk.end("schemathesis") and ok
    finish("schemathesis", ok)


main()
