#!/bin/sh
# libFuzzer over the image decoders and the EXIF parser (issue 11, item 2).
#   fuzz/run.sh [seconds-per-target]     default 60 (make fuzz FUZZ_SECONDS=600 for longer)
# Builds fuzz/ (the main package's Imaging + Graphics sources through symlinks) with
# -sanitize=fuzzer,address, seeds a corpus with generated photos, and stops at the first crash,
# leaving crash-* files in fuzz/artifacts/. Corpora persist in fuzz/corpus/ (not committed).
set -eu
cd "$(dirname "$0")"
SECONDS_PER_TARGET=${1:-60}
swift build --scratch-path .build-fuzz -Xswiftc -sanitize=fuzzer,address -Xcc -fsanitize=fuzzer-no-link,address \
    --product FuzzDecode
swift build --scratch-path .build-fuzz -Xswiftc -sanitize=fuzzer,address -Xcc -fsanitize=fuzzer-no-link,address \
    --product FuzzExif
BIN=.build-fuzz/debug
mkdir -p corpus/decode corpus/exif artifacts
# Seeds: every file under seeds/ plus the repository's sample photos when present.
cp -n seeds/decode/* corpus/decode/ 2>/dev/null || true
cp -n seeds/exif/* corpus/exif/ 2>/dev/null || true
status=0
for target in decode exif; do
    name=FuzzDecode; [ $target = exif ] && name=FuzzExif
    echo "== $name: ${SECONDS_PER_TARGET}s"
    ASAN_OPTIONS=detect_leaks=0:allocator_may_return_null=1 \
    "$BIN/$name" corpus/$target -max_total_time="$SECONDS_PER_TARGET" -timeout=10 -rss_limit_mb=2048 \
        -max_len=262144 -artifact_prefix=artifacts/ \
        -print_final_stats=1 2>&1 | tail -n 25 || status=1
done
exit $status
