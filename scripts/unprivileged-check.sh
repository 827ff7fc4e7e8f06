#!/bin/sh
# Runs the headless app as the unprivileged user `nobody` (issue 11, item 6): it must not need
# root. A folder with a good photo, a photo nobody may read, and links leaving the folder; the
# snapshot must succeed, log the unreadable photo once, skip the links, and read nothing else.
#   scripts/unprivileged-check.sh [path/to/photokiosk]     (default .build/debug/photokiosk)
set -eu
cd "$(dirname "$0")/.."
BIN=$(realpath "${1:-.build/debug/photokiosk}")
[ "$(id -u)" = 0 ] || { echo "needs root to switch to nobody (setpriv)"; exit 2; }
work=$(mktemp -d /tmp/photokiosk-unpriv-XXXXXX)
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/photos" "$work/secret" "$work/out"
photo=$(ls assets/photos/*.jpg | head -n 1)
cp "$photo" "$work/photos/good.jpg"
cp "$photo" "$work/photos/locked.jpg" && chmod 000 "$work/photos/locked.jpg"
cp "$photo" "$work/secret/private.jpg" && chmod 600 "$work/secret/private.jpg"
ln -s "$work/secret/private.jpg" "$work/photos/escape.jpg"
ln -s "$work/secret" "$work/photos/escape-dir"
chmod 755 "$work" "$work/photos"
chown nobody "$work/out"
set +e
HOME=/nonexistent setpriv --reuid=nobody --regid=nogroup --clear-groups --no-new-privs \
    "$BIN" snapshot --photos "$work/photos" --size 640x480 --out "$work/out/grid.png" --no-cache --timeout 30 \
    >"$work/log" 2>&1
status=$?
set -e
cat "$work/log"
fail() { echo "FAIL: $*"; exit 1; }
[ $status = 0 ] || fail "snapshot as nobody exited $status"
[ -s "$work/out/grid.png" ] || fail "no snapshot written"
[ "$(grep -c 'locked.jpg: permission denied' "$work/log")" = 1 ] || fail "unreadable photo not logged exactly once"
grep -q 'escape.jpg: link leads outside' "$work/log" || fail "link to a file outside not skipped"
grep -q 'escape-dir: link leads outside' "$work/log" || fail "link to a folder outside not skipped"
if grep -q 'private.jpg' "$work/log"; then fail "a file outside the folder was read"; fi
echo "PASS: runs as nobody (uid $(id -u nobody)), unreadable photo shown broken, links leaving the folder skipped"
