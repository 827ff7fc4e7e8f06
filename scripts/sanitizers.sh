#!/bin/sh
# The unit tests under AddressSanitizer and ThreadSanitizer (issue 11, item 5).
#   scripts/sanitizers.sh [asan|tsan|all] [swift test --filter pattern]
# Separate build folders (.build-asan, .build-tsan) so the normal .build stays as it is. Each
# prints its wall time. The QEMU suite and benchmarks are not part of this run.
# SANITIZER_STEPS=build (or test) does only that half: CI builds beside `make test` (.ci/run).
set -eu
cd "$(dirname "$0")/.."
which=${1:-all}
filter=${2:-}
run() {
    name=$1 sanitizer=$2
    start=$(date +%s)
    steps=${SANITIZER_STEPS:-build test}
    case " $steps " in *" build "*)
        echo "== $name: building"
        swift build --build-tests --scratch-path ".build-$name" --sanitize="$sanitizer"
        echo "== $name: built in $(( $(date +%s) - start )) s" ;;
    esac
    case " $steps " in *" test "*) ;; *) return 0 ;; esac
    echo "== $name: testing"
    # Leak reports from the Swift runtime's process-lifetime caches are noise here. Tests that
    # measure RSS read PHOTOKIOSK_SANITIZER: under a sanitizer RSS is not a leak measure.
    PHOTOKIOSK_SANITIZER=$name ASAN_OPTIONS=detect_leaks=0:abort_on_error=1 TSAN_OPTIONS=halt_on_error=1:second_deadlock_stack=1 \
        swift test --skip-build --scratch-path ".build-$name" --sanitize="$sanitizer" ${filter:+--filter "$filter"}
    echo "== $name: passed in $(( $(date +%s) - start )) s"
}
case $which in
    asan) run asan address ;;
    tsan) run tsan thread ;;
    all) run asan address; run tsan thread ;;
    *) echo "usage: $0 [asan|tsan|all] [filter]" >&2; exit 2 ;;
esac
