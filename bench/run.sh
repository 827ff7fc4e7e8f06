#!/bin/sh
# `make bench`: installs the comparison tools when missing, builds release, runs every benchmark
# and prints the table. Figures never fail the run; only a broken build or crash does.
# Outputs: .build/bench/table.md (the markdown table for BENCHMARKS.md) and
# bench/frame-histogram.png. Generated corpora are cached under .build/bench.
set -eu
cd "$(dirname "$0")/.."
SWIFT=${SWIFT:-swift}
REPS=${BENCH_REPS:-3}

as_root() { if [ "$(id -u)" = 0 ]; then "$@"; elif command -v sudo >/dev/null; then sudo "$@"; else echo "bench: cannot install $* (not root, no sudo)"; return 1; fi; }
missing=""
command -v djpeg >/dev/null || missing="$missing libjpeg-turbo-progs"
[ -x /usr/bin/convert ] || missing="$missing imagemagick"
command -v heif-convert >/dev/null || missing="$missing libheif-examples"  # HEIC/AVIF rows: encoder and baseline
command -v dwebp >/dev/null || missing="$missing webp"                      # WebP rows
if [ -n "$missing" ]; then
    echo "bench: installing$missing"
    as_root apt-get install -y --no-install-recommends $missing || echo "bench: continuing without$missing"
fi

$SWIFT build -c release --product photokiosk-bench
# Real photos: BENCH_PHOTOS, else ../shared/photos (also from a worktree one level deeper),
# else a generated corpus.
CORPUS=""
for dir in ${BENCH_PHOTOS:-} ../shared/photos ../../shared/photos; do
    if [ -d "$dir" ]; then CORPUS=$dir; break; fi
done
mkdir -p .build/bench
exec .build/release/photokiosk-bench run ${CORPUS:+--corpus "$CORPUS"} --work .build/bench --reps "$REPS" \
    --markdown .build/bench/table.md --histogram bench/frame-histogram.png
