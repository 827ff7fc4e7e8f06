#!/usr/bin/env bash
# libFuzzer over the image decoders, the EXIF parser and the remote API's request routing.
#   fuzz/run.sh [seconds-per-target]   every target, default 60 s each (make fuzz FUZZ_SECONDS=600)
#   fuzz/run.sh --self-test            proves a crash, a hang and an out-of-memory each fail the run
# Each target is a folder Sources/Fuzz<Name>/ (plus its line in Package.swift); its committed seed
# corpus is seeds/<name>/ (lower case). Corpora grow in corpus/<name>/ (not committed); a failing
# input is written to artifacts/ and named on the FAIL line. Exit status: non-zero if any target
# crashed, hung (-timeout), ran out of memory (-rss_limit_mb) or did not build.
# FUZZ_RESULTS=FILE appends one line per target ("fuzz NAME PASS|FAIL ...") for make test's summary.
set -euo pipefail
cd "$(dirname "$0")"
FLAGS=(--scratch-path .build-fuzz -Xswiftc -sanitize=fuzzer,address -Xcc -fsanitize=fuzzer-no-link,address)
BIN=.build-fuzz/debug
mkdir -p corpus artifacts logs

# fuzz_one PRODUCT CORPUS SECONDS [libFuzzer flags...]: 0 when the run ended cleanly; else prints why.
fuzz_one() {
    local product=$1 corpus=$2 seconds=$3; shift 3
    local log=logs/$product.log rc=0
    ASAN_OPTIONS=detect_leaks=0:allocator_may_return_null=1 \
        "$BIN/$product" "$corpus" -max_total_time="$seconds" -timeout="${FUZZ_TIMEOUT:-10}" \
        -rss_limit_mb=2048 -max_len=262144 -artifact_prefix="artifacts/$product-" -print_final_stats=1 \
        "$@" >"$log" 2>&1 || rc=$?
    local artifact kind
    artifact=$(grep -oE 'Test unit written to [^ ]+' "$log" | tail -n 1 | cut -d' ' -f5 || true)
    if [ "$rc" -eq 0 ] && [ -z "$artifact" ]; then
        echo "$(grep -oE 'stat::number_of_executed_units: *[0-9]+' "$log" | grep -oE '[0-9]+$' || echo '?') runs"
        return 0
    fi
    kind=crash
    grep -q 'ERROR: libFuzzer: timeout' "$log" && kind=timeout
    grep -qE 'ERROR: libFuzzer: (out-of-memory|malloc limit)' "$log" && kind=out-of-memory
    echo "$kind (exit $rc), artifact ${artifact:-none written}, log fuzz/$log"
    return 1
}

build() {
    local log=logs/build-$1.log
    swift build "${FLAGS[@]}" --product "$1" >"$log" 2>&1 || { tail -n 20 "$log" >&2; return 1; }
}

record() { [ -z "${FUZZ_RESULTS:-}" ] || echo "fuzz $*" >>"$FUZZ_RESULTS"; }

if [ "${1:-}" = --self-test ]; then
    build FuzzSelfTest
    failed=0
    for case in crash timeout oom; do
        rm -rf "corpus/selftest-$case" && cp -r "seeds/selftest-$case" "corpus/selftest-$case"
        if why=$(FUZZ_TIMEOUT=2 fuzz_one FuzzSelfTest "corpus/selftest-$case" 30); then
            echo "fuzz self-test $case: FAIL — the run passed ($why)"; failed=$((failed + 1))
        else
            want=$case; [ $case = oom ] && want=out-of-memory
            if [[ $why == "$want "* && $why == *"artifact artifacts/FuzzSelfTest-"* ]]; then
                echo "fuzz self-test $case: caught: $why"
            else
                echo "fuzz self-test $case: FAIL — wrong report: $why"; failed=$((failed + 1))
            fi
        fi
    done
    rm -f artifacts/FuzzSelfTest-*
    record "self-test $([ $failed = 0 ] && echo PASS || echo FAIL)"
    echo "fuzz self-test: $((3 - failed)) passed, $failed failed"
    exit $((failed > 0))
fi

SECONDS_PER_TARGET=${1:-60}
status=0
for dir in Sources/Fuzz*/; do
    product=$(basename "$dir")
    case $product in FuzzDriver|FuzzSelfTest) continue ;; esac
    name=$(echo "${product#Fuzz}" | tr '[:upper:]' '[:lower:]')
    if ! build "$product"; then
        echo "== $product: FAIL — does not build (fuzz/logs/build-$product.log)"; record "$name FAIL build"; status=1; continue
    fi
    mkdir -p "corpus/$name"
    cp -n "seeds/$name"/* "corpus/$name/" 2>/dev/null || true
    if why=$(fuzz_one "$product" "corpus/$name" "$SECONDS_PER_TARGET"); then
        echo "== $product: PASS in ${SECONDS_PER_TARGET}s ($why)"; record "$name PASS"
    else
        echo "== $product: FAIL — $why"; record "$name FAIL $why"; status=1
    fi
done
exit $status
