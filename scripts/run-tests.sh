#!/usr/bin/env bash
# `make test`: every check of the project, then one closing line counted from what ran.
#   1. the summary's own checks (scripts/test_summary_test.py); every import declared in
#      Package.swift (scripts/check-imports.py, and its self-test); every link in the docs
#      resolves (scripts/check-doc-links.py, and its self-test)
#   2. unit tests (swift test; log in .build/unit-test.log)
#   3. the remote page in headless Chromium (e2e/remote-page.sh; screenshots in .build/remote-page);
#      the remote API against docs/remote-api.json with schemathesis (scripts/remote-schemathesis.sh);
#      the remote API under 60 s of many loopback clients (scripts/remote-stress.sh);
#      Syncthing from a "phone" instance into a kiosk's library (scripts/syncthing-test.sh)
#      the photo sources' sync with rclone against WebDAV, SFTP and SMB servers on loopback
#      (scripts/sources-test.sh)
#   4. libFuzzer: the self-test (a crash, a hang and an out-of-memory must each fail), then every
#      fuzz target for FUZZ_TEST_SECONDS (default 20) from the committed seeds
#   5. the QEMU end-to-end stages on each display device (e2e/run.sh; E2E_SKIP switches stages off)
#   6. the Debian package: lintian, the unit's sandbox, install/upgrade/purge in a debootstrap
#      chroot (scripts/package-test.sh)
# Every stage runs even when an earlier one failed, so the summary names everything that failed.
# Exit status: 0 only when nothing failed.
set -uo pipefail
cd "$(dirname "$0")/.."
mkdir -p .build
RESULTS=$PWD/.build/test-results.txt
: >"$RESULTS"
phase() { local name=$1; shift; "$@"; echo "phase $name $?" >>"$RESULTS"; }
# Wall time of each section, printed before the summary so a slow CI run says where it went.
TIMES=""
section_start=$SECONDS
section() { [ -n "${section_name:-}" ] && TIMES+="${section_name} $((SECONDS - section_start)) s, "
  section_name=$1; section_start=$SECONDS; echo "== $2"; }
check() { local name=$1; shift
  if "$@"; then echo "check $name PASS" >>"$RESULTS"; else echo "check $name FAIL" >>"$RESULTS"; fi; }

section checks "summary checks"
check summary python3 scripts/test_summary_test.py

section imports "declared imports (every module a target imports is in Package.swift)"
check imports-self-test python3 scripts/check-imports.py --self-test
check imports python3 scripts/check-imports.py

section doc-links "documentation links (every relative link, image and anchor in README.md, ARCHITECTURE.md, docs/)"
check doc-links-self-test python3 scripts/check-doc-links.py --self-test
check doc-links python3 scripts/check-doc-links.py

section unit "unit tests"
unit_exit=0
{ swift build --build-tests && swift test --skip-build; } 2>&1 | tee .build/unit-test.log || unit_exit=$?

section remote-page "remote page in a browser"
check remote-page e2e/remote-page.sh

section schemathesis "remote API against its OpenAPI description (schemathesis, about 2 min)"
check remote-schemathesis scripts/remote-schemathesis.sh

section stress "remote API under stress on loopback (${REMOTE_STRESS_SECONDS:-60} s)"
check remote-stress scripts/remote-stress.sh

section syncthing "Syncthing phone -> frame on loopback (two instances and a headless kiosk, about 1 min)"
check syncthing scripts/syncthing-test.sh
section sources "photo sources: rclone against Apache WebDAV, sshd and smbd on loopback (about 2 min)"
check sources scripts/sources-test.sh

section fuzz "fuzz (${FUZZ_TEST_SECONDS:-20} s per target)"
phase fuzz env FUZZ_RESULTS="$RESULTS" fuzz/run.sh --self-test
phase fuzz env FUZZ_RESULTS="$RESULTS" fuzz/run.sh "${FUZZ_TEST_SECONDS:-20}"

section e2e "end-to-end"
phase e2e env E2E_RESULTS="$RESULTS" e2e/run.sh

section package "Debian package"
phase package env PACKAGE_RESULTS="$RESULTS" scripts/package-test.sh

section summary "summary"
echo "time: ${TIMES%, }; total $SECONDS s"
python3 scripts/test_summary.py --unit-log .build/unit-test.log --unit-exit "$unit_exit" --results "$RESULTS"
