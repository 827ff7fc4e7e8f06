#!/usr/bin/env bash
# Property-based test of the remote API (issue 31): schemathesis (PyPI, installed into
# .build/venv-schemathesis) generates requests from docs/remote-api.json for every operation and
# runs them against a live headless kiosk on loopback: no 5xx, every status, content type and JSON
# shape as the spec says, and the kiosk still answers at the end. Bounded in time (about 2 min).
# Prints the operations and examples counted from schemathesis' own report.
# Usage: scripts/remote-schemathesis.sh   (exit 0 only when all of that holds)
set -euo pipefail
here="$(cd "$(dirname "$0")/.." && pwd)"
out="$here/.build/schemathesis"
venv="$here/.build/venv-schemathesis"
mkdir -p "$out"
if [ ! -x "$venv/bin/st" ]; then
    "$here/scripts/install-deps.sh" python3-venv
    python3 -m venv "$venv"
    "$venv/bin/pip" install -q 'schemathesis>=4,<5'
fi
(cd "$here" && swift build --product photokiosk)
exec python3 "$here/scripts/remote_schemathesis.py" --binary "$here/.build/debug/photokiosk" --photos "$here/assets/photos" \
    --spec "$here/docs/remote-api.json" --st "$venv/bin/st" --out "$out"
