#!/usr/bin/env bash
# README screenshots (`make screenshots`): every `shot` line below renders one PNG under
# docs/screenshots/ headless with `photokiosk snapshot`, from the bundled samples
# (assets/photos), at 960x540 as on a 7-inch panel (154x87 mm, so the controls have the size
# they have on one). Add a screenshot by adding a line: shot NAME [snapshot options].
# pngquant (when installed) makes each PNG a palette image a third the size.
set -euo pipefail
cd "$(dirname "$0")/.."
BIN=${BIN:-.build/release/photokiosk}
OUT=docs/screenshots
SIZE=${SIZE:-960x540}
MILLIMETRES=${MILLIMETRES:-154x87}
mkdir -p "$OUT"

shot() {
    local name=$1; shift
    local png="$OUT/$name.png"
    "$BIN" snapshot --photos assets/photos --size "$SIZE" --millimetres "$MILLIMETRES" --no-cache \
        --out "$png" "$@" >/dev/null
    if command -v pngquant >/dev/null; then
        pngquant --force --skip-if-larger --strip --speed 1 --output "$png" -- "$png" || true
    fi
    echo "$png $(stat -c %s "$png") bytes"
}

shot grid
shot album --photo 3 --chrome
shot touch-overlay --photo 5 --chrome --touch-overlay
