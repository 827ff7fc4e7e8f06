#!/usr/bin/env bash
# Stress on loopback only (issue 31): a live headless kiosk with its slideshow running, and for a
# fixed time (REMOTE_STRESS_SECONDS, default 60) many clients from many loopback addresses at
# once: uploads (kept, then deleted), status, screen.png, wrong tokens, uploads cut off midway,
# idle connections. Passes when the kiosk kept drawing (the slideshow moved on and screen.png
# answered throughout), status answered within 100 ms at the 99th percentile, nothing answered
# 5xx, and no temporary upload file is left behind. Prints the figures.
set -euo pipefail
here="$(cd "$(dirname "$0")/.." && pwd)"
out="$here/.build/remote-stress"
mkdir -p "$out"
(cd "$here" && swift build --product photokiosk)
exec python3 "$here/scripts/remote_stress.py" --binary "$here/.build/debug/photokiosk" --photos "$here/assets/photos" \
    --out "$out" --seconds "${REMOTE_STRESS_SECONDS:-60}"
