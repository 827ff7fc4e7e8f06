#!/usr/bin/env python3
"""The closing line of `make test`, counted from what actually ran.

    test_summary.py --unit-log .build/unit-test.log --results .build/test-results.txt

Unit tests are counted from the test runner's own lines: Swift Testing's closing "Test run with
N tests" line gives the total (its per-test ✔ lines can be missing from a log when parallel tests'
output interleaves, so they are only a fallback), less the tests its ✘/➜ lines name as failed or
skipped; XCTest's "Executed N tests, with M failures" adds its own. A run without the runner's
closing line is a failure, never "0 passed". The results file holds one line per item that other stages ran:

    e2e STAGE/DISPLAY PASS|FAIL|SKIP [why]      (e2e/run.sh)
    fuzz TARGET PASS|FAIL [why]                 (fuzz/run.sh)
    check NAME PASS|FAIL [why]                  (other checks of the test command)
    phase NAME EXIT                             (a stage's exit status)

A phase that exited non-zero without recording a failure counts as one failure. Every skipped
item is named. Prints the totals as "tests: N passed, M failed, K skipped" and exits 1 when
anything failed.
"""
import argparse
import re
import sys
from dataclasses import dataclass, field

SWIFT_TESTING_RUN = re.compile(r"^[✔✘] Test run with (\d+) tests? in \d+ suites? (passed|failed)")
SWIFT_TESTING_PASSED = re.compile(r"^✔ Test (.+) passed after [\d.]+ seconds")
SWIFT_TESTING_FAILED = re.compile(r"^✘ Test (.+) failed after [\d.]+ seconds")
SWIFT_TESTING_SKIPPED = re.compile(r"^➜ (Test|Suite) (.+) skipped(?:\.|: .*)$")
XCTEST_EXECUTED = re.compile(r"Executed (\d+) tests?, with (\d+) failures?")


@dataclass
class Tally:
    passed: int = 0
    failed: list = field(default_factory=list)   # names, with why
    skipped: list = field(default_factory=list)  # names, with why


def count_unit_tests(log_text, exit_status):
    """The unit-test tally from the runner's output and its exit status."""
    tally = Tally()
    run_total = None   # the runner's own count, from its closing line
    passed_lines = 0
    skipped_tests = 0
    for line in log_text.splitlines():
        if m := SWIFT_TESTING_RUN.match(line):
            run_total = int(m.group(1))
        elif m := SWIFT_TESTING_PASSED.match(line):
            passed_lines += 1
        elif m := SWIFT_TESTING_FAILED.match(line):
            tally.failed.append(f"unit {m.group(1)}")
        elif m := SWIFT_TESTING_SKIPPED.match(line):
            kind = "suite " if m.group(1) == "Suite" else ""
            skipped_tests += m.group(1) == "Test"
            tally.skipped.append(f"unit {kind}{m.group(2)}")
    finished = run_total is not None
    if finished:  # a skipped test is in the runner's total; a skipped suite's tests are not
        tally.passed = max(run_total - len(tally.failed) - skipped_tests, 0)
    else:
        tally.passed = passed_lines
    executed = XCTEST_EXECUTED.findall(log_text)
    if executed:  # the last such line is XCTest's total over all its suites
        total, failures = map(int, executed[-1])
        tally.passed += total - failures
        tally.failed += [f"unit XCTest failure {i + 1}" for i in range(failures)]
    if not finished:
        tally.failed.append("unit: the test runner did not finish (no 'Test run with N tests' line)")
    if exit_status not in (None, 0) and not tally.failed:
        tally.failed.append(f"unit: swift test exited {exit_status} with no failing test named")
    return tally


def count_results(results_text, tally):
    """Adds the e2e, fuzz and check lines; phases that failed silently become failures."""
    failed_phases = {}
    categories_with_failures = set()
    for line in results_text.splitlines():
        words = line.split(maxsplit=3)
        if len(words) < 3:
            continue
        category, name, verdict = words[0], words[1], words[2]
        why = words[3] if len(words) > 3 else ""
        if category == "phase":
            if verdict != "0":
                failed_phases[name] = verdict
            continue
        label = f"{category} {name}" + (f" ({why})" if why else "")
        if verdict == "PASS":
            tally.passed += 1
        elif verdict == "SKIP":
            tally.skipped.append(label)
        else:
            tally.failed.append(label)
            categories_with_failures.add(category)
    for phase, status in failed_phases.items():
        if phase not in categories_with_failures:
            tally.failed.append(f"{phase}: exited {status} with no failing item recorded")
    return tally


def summary_lines(tally):
    lines = [f"skipped: {name}" for name in tally.skipped]
    lines += [f"FAILED: {name}" for name in tally.failed]
    lines.append(f"tests: {tally.passed} passed, {len(tally.failed)} failed, {len(tally.skipped)} skipped")
    return lines


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--unit-log", required=True)
    parser.add_argument("--unit-exit", type=int, default=None)
    parser.add_argument("--results", default=None)
    args = parser.parse_args()
    try:
        unit_text = open(args.unit_log, encoding="utf-8", errors="replace").read()
    except OSError as error:
        unit_text = ""
        print(f"test summary: cannot read {args.unit_log}: {error.strerror}")
    tally = count_unit_tests(unit_text, args.unit_exit)
    if args.results:
        try:
            count_results(open(args.results, encoding="utf-8", errors="replace").read(), tally)
        except OSError as error:
            tally.failed.append(f"results: cannot read {args.results}: {error.strerror}")
    print("\n".join(summary_lines(tally)))
    return 1 if tally.failed else 0


if __name__ == "__main__":
    sys.exit(main())
