#!/usr/bin/env python3
"""Checks of test_summary.py over sample runner output: the summary must be able to fail."""
import os
import subprocess
import sys
import tempfile
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import test_summary  # noqa: E402

PASSING_RUN = """\
Test Suite 'All tests' passed at 2026-11-25 07:17:33.436
\t Executed 0 tests, with 0 failures (0 unexpected) in 0.0 (0.0) seconds
◇ Test run started.
➜ Suite "LoadingBenchmarks" skipped.
✔ Test "a name that says passed after a while" passed after 0.050 seconds.
✔ Test b() passed after 1.000 seconds.
➜ Test "an unreadable folder is skipped with one log line" skipped.
✔ Suite S passed after 1.1 seconds.
✔ Test run with 3 tests in 1 suite passed after 1.2 seconds.
"""

FAILING_RUN = """\
◇ Test run started.
✔ Test a() passed after 0.001 seconds.
✘ Test b() recorded an issue at File.swift:10:5: Expectation failed: 1 == 2
✘ Test b() failed after 0.001 seconds with 1 issue.
✘ Suite S failed after 0.002 seconds with 1 issue.
✘ Test run with 2 tests in 1 suite failed after 0.002 seconds with 1 issue.
"""

CRASHED_RUN = """\
◇ Test run started.
✔ Test a() passed after 0.001 seconds.
Fatal error: Index out of range
"""

# The runner's per-test lines can be missing (interleaved output); its closing count is the truth.
MISSING_PASS_LINES = """\
◇ Test run started.
✔ Test a() passed after 0.001 seconds.
➜ Test "c" skipped.
✔ Test run with 5 tests in 2 suites passed after 0.002 seconds.
"""

XCTEST_FAILURES = """\
\t Executed 5 tests, with 2 failures (0 unexpected) in 0.1 (0.1) seconds
✔ Test run with 0 tests in 0 suites passed after 0.001 seconds.
"""


def tally(log, exit_status=0, results=""):
    return test_summary.count_results(results, test_summary.count_unit_tests(log, exit_status))


class SummaryTests(unittest.TestCase):
    def test_a_passing_run_counts_passes_and_names_every_skip(self):
        t = tally(PASSING_RUN)
        self.assertEqual(t.passed, 2)
        self.assertEqual(t.failed, [])
        self.assertIn('unit suite "LoadingBenchmarks"', t.skipped)
        self.assertIn('unit "an unreadable folder is skipped with one log line"', t.skipped)
        self.assertEqual(test_summary.summary_lines(t)[-1], "tests: 2 passed, 0 failed, 2 skipped")

    def test_a_failing_test_is_counted_and_named(self):
        t = tally(FAILING_RUN, exit_status=1)
        self.assertEqual((t.passed, t.failed), (1, ["unit b()"]))
        self.assertEqual(test_summary.summary_lines(t)[-1], "tests: 1 passed, 1 failed, 0 skipped")

    def test_a_runner_that_never_finished_is_a_failure_not_zero_passed(self):
        for log in (CRASHED_RUN, ""):
            t = tally(log, exit_status=134)
            self.assertTrue(any("did not finish" in f for f in t.failed), t.failed)

    def test_a_nonzero_exit_without_a_named_failure_is_a_failure(self):
        t = tally(PASSING_RUN, exit_status=1)
        self.assertTrue(any("exited 1" in f for f in t.failed), t.failed)

    def test_the_runners_own_total_counts_when_pass_lines_are_missing(self):
        t = tally(MISSING_PASS_LINES)
        self.assertEqual((t.passed, t.failed, len(t.skipped)), (4, [], 1))

    def test_xctest_failures_count(self):
        t = tally(XCTEST_FAILURES)
        self.assertEqual((t.passed, len(t.failed)), (3, 2))

    def test_stages_are_counted_per_display_and_skips_are_named(self):
        results = "\n".join([
            "e2e platform/bochs PASS",
            "e2e platform/virtio FAIL console log in .build/e2e",
            "e2e seat/bochs SKIP switched off by E2E_SKIP",
            "fuzz decode PASS",
            "fuzz exif FAIL crash (exit 1), artifact artifacts/FuzzExif-crash-1",
            "phase e2e 1",
            "phase fuzz 1",
        ])
        t = tally(PASSING_RUN, results=results)
        self.assertEqual(t.passed, 2 + 2)
        self.assertIn("e2e platform/virtio (console log in .build/e2e)", t.failed)
        self.assertIn("fuzz exif (crash (exit 1), artifact artifacts/FuzzExif-crash-1)", t.failed)
        self.assertIn("e2e seat/bochs (switched off by E2E_SKIP)", t.skipped)
        self.assertEqual(len(t.failed), 2)  # the phases' failures are already named

    def test_a_phase_that_failed_silently_is_a_failure(self):
        t = tally(PASSING_RUN, results="e2e platform/bochs PASS\nphase e2e 2\nphase fuzz 0\n")
        self.assertEqual(t.failed, ["e2e: exited 2 with no failing item recorded"])

    def test_the_command_exits_non_zero_on_failure(self):
        with tempfile.TemporaryDirectory() as folder:
            log = os.path.join(folder, "unit.log")
            with open(log, "w", encoding="utf-8") as f:
                f.write(FAILING_RUN)
            script = os.path.join(os.path.dirname(os.path.abspath(__file__)), "test_summary.py")
            run = subprocess.run([sys.executable, script, "--unit-log", log, "--unit-exit", "1"],
                                 capture_output=True, text=True)
            self.assertEqual(run.returncode, 1)
            self.assertTrue(run.stdout.rstrip().endswith("tests: 1 passed, 1 failed, 0 skipped"), run.stdout)


if __name__ == "__main__":
    unittest.main()
