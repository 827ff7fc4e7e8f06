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
# exiftool tags a copy of a sample for the overlay's shot; pngquant shrinks the PNGs.
scripts/install-deps.sh libimage-exiftool-perl pngquant >/dev/null
PHOTOS=assets/photos
scratch=$(mktemp -d); trap 'rm -rf "$scratch"' EXIT

shot() {
    local name=$1; shift
    local png="$OUT/$name.png"
    "$BIN" snapshot --photos "$PHOTOS" --size "$SIZE" --millimetres "$MILLIMETRES" --no-cache \
        --out "$png" "$@" >/dev/null
    if command -v pngquant >/dev/null; then
        pngquant --force --skip-if-larger --strip --speed 1 --output "$png" -- "$png" || true
    fi
    echo "$png $(stat -c %s "$png") bytes"
}

# The grid as a frame shows it: the default thumbnail size (140 points), whole rows.
shot grid
shot album --photo 4 --chrome
shot touch-overlay --photo 5 --chrome --touch-overlay
# djembe-and-wine and dogs-at-the-window are the 3rd and 4th samples, both portrait: a pair.
shot portrait-pair --slideshow --pair-portraits --photo 2

# The samples carry no caption, date or position: the overlay's shot shows a copy given them.
cp assets/photos/yellow-flower-by-charles-barbin.jpg "$scratch/"
exiftool -q -overwrite_original -ImageDescription="Sunflower by the garden wall" \
    -DateTimeOriginal="2024:08:17 10:32:00" -GPSLatitude=48.8584 -GPSLatitudeRef=N \
    -GPSLongitude=2.2945 -GPSLongitudeRef=E "$scratch/yellow-flower-by-charles-barbin.jpg"
PHOTOS=$scratch
shot slideshow-overlay --slideshow --overlay-clock top-right --overlay-date-taken bottom-left \
    --overlay-caption bottom-left --overlay-place bottom-left
