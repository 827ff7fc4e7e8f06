#!/usr/bin/env bash
# The remote page in a real browser (issue 19): Debian's chromium, driven by chromedriver through
# python3-selenium, on a phone-sized viewport against `photokiosk run` headless with the remote
# on a loopback port. Logs in, screenshots the page, uploads a photo through the file picker,
# checks it reaches the kiosk's grid within two seconds, screenshots again (page and kiosk
# screen), changes settings on the page and reads them back from the API (issue 30),
# checks the photo sources' state under the status line (issue 34 item 7: a synced source with
# its quota note, a failing one with the reason), checks a few misuses get JSON errors, and ends
# the kiosk with SIGTERM (exit 0).
# Usage: e2e/remote-page.sh [OUTDIR]   (default: .build/remote-page; the PNGs land there)
set -euo pipefail
here="$(cd "$(dirname "$0")/.." && pwd)"
out="${1:-$here/.build/remote-page}"
"$here/scripts/install-deps.sh" chromium chromium-driver python3-selenium
(cd "$here" && swift build --product photokiosk)
mkdir -p "$out"
exec /usr/bin/python3 "$here/e2e/remote_page.py" --binary "$here/.build/debug/photokiosk" \
    --photos "$here/assets/photos" --out "$out"
