#!/usr/bin/env bash
# Syncthing as the phone's way in (issue 34 items 3 and 5): two real Syncthing instances on
# loopback, a "phone" (send-only camera folder) and a "frame" (receive-only folder inside the
# library of a headless kiosk); first sync, add, delete, rename, a conflict file, a big photo cut
# half way and finished later, each checked through the kiosk's remote API, and the kiosk's own
# [syncthing] status (in sync, syncing, phone gone) in /api/status. Measures the frame's
# Syncthing memory. Bounded: about 1 min, killed at 150 s. Logs in .build/syncthing.
# Usage: scripts/syncthing-test.sh   (exit 0 only when all of that holds)
set -euo pipefail
here="$(cd "$(dirname "$0")/.." && pwd)"
out="$here/.build/syncthing"
mkdir -p "$out"
"$here/scripts/install-deps.sh" syncthing
(cd "$here" && swift build --product photokiosk)
exec timeout --kill-after=10 150 python3 "$here/scripts/syncthing_test.py" --binary "$here/.build/debug/photokiosk" \
    --photos "$here/assets/photos" --out "$out"
