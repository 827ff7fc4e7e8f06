#!/bin/bash
# The same pixels on both architectures: fixed scenes rendered headless by `photokiosk snapshot`,
# once by the amd64 build and once by the arm64 package's program (run through qemu-user in the
# arm64 stage's Debian 13 arm64 root, with that root's libraries), compared pixel by pixel.
# 800x480 (the Raspberry Pi Touch Display's size): under qemu-user every frame costs about a
# second at 1280x800, and a slideshow scene is drawn frame by frame on its virtual clock (60 a
# second up to --at): at 1280x800 the overlay's --at 12 did not finish in 900 s.
# Tolerance: every pixel may differ by up to 2 levels per channel (where a SIMD path may round
# differently) and at most 0.1% of a scene's pixels by more; every difference is printed,
# identical or not. The Ken Burns frame is the first (--transition none --at 0: the composed
# slide, 1.15 times the screen, scaled down bilinearly): a later --at frame is not repeatable
# even on amd64 (three amd64 renders at --at 2.5 differed in 97% of the pixels: the zoom's start
# moves with how long composing took), so it could not tell the architectures apart.
# The tolerance is tested first on a real render (pixels.py perturb): all
# pixels moved by 2 and 0.1% moved by 3 must pass, 0.2% moved by 3 must fail.
# Usage: arm64-pixels.sh ARM64_DIR AMD64_PHOTOKIOSK   (ARM64_DIR: arm64-stage.sh's, after prepare)
set -uo pipefail
A=$1 HOST_BIN=$2
ROOT=$(cd "$(dirname "$0")/.." && pwd)
R=${PIXELS_ROOT:-$A/arm64-root}              # an arm64 system with the package's libraries
PROGRAM=${PIXELS_PROGRAM:-/usr/bin/photokiosk}  # the arm64 program, inside it
P=$A/pixels
THRESHOLD=2 FRACTION=0.001
SIZE=800x480
cd "$ROOT"   # the amd64 program finds the overlay's place table in assets/places (the arm64 one in the package)
rm -rf "$P" && mkdir -p "$P/photos/samples" "$P/photos/big" "$P/photos/tagged" "$P/amd64" "$P/arm64" || exit 1
[ -x "$R$PROGRAM" ] || { echo "arm64-pixels: no arm64 root with the package ($R)"; exit 1; }
cp "$ROOT"/assets/photos/*.jpg "$P/photos/samples/"
# two 5120x2880 photos (the flick needs two): over twice the screen, so the zoom is tiled
cp $(ls "$A"/sb/photos/*-5120x2880-*.jpg | head -n 2) "$P/photos/big/"
# The overlay's scene needs a caption, a date and a place: a tagged copy (as scripts/screenshots.sh).
"$ROOT/scripts/install-deps.sh" libimage-exiftool-perl >/dev/null 2>&1
cp "$ROOT/assets/photos/yellow-flower-by-charles-barbin.jpg" "$P/photos/tagged/"
exiftool -q -overwrite_original -ImageDescription="Sunflower by the garden wall" \
  -DateTimeOriginal="2024:08:17 10:32:00" -GPSLatitude=48.8584 -GPSLatitudeRef=N \
  -GPSLongitude=2.2945 -GPSLongitudeRef=E "$P/photos/tagged/yellow-flower-by-charles-barbin.jpg" || exit 1
rm -rf "$R/tmp/pixels" && cp -r "$P/photos" "$R/tmp/pixels" && mkdir -p "$R/tmp/pixels/out"
# The Swift runtime reads its arguments from /proc/self/cmdline.
mountpoint -q "$R/proc" || { mount -t proc proc "$R/proc" && trap 'umount "$R/proc"' EXIT; }

# NAME FOLDER [snapshot options]: one scene, by both programs.
SCENES=(
  "grid samples"
  "album-chrome samples --photo 3 --chrome"
  "tiled-1to1 big --flick --photo 0"
  "ken-burns samples --slideshow --ken-burns --transition none --photo 2 --at 0"
  "info-overlay tagged --slideshow --at 2.5 --overlay-date-taken bottom-left --overlay-caption bottom-left --overlay-place top-right"
)
failed=0
# tolerance_test PICTURE: the comparison with this tolerance can fail, and fails where it should.
tolerance_test() {
  local every delta want got
  for c in "1 2 0" "1000 3 0" "500 3 1"; do
    set -- $c; every=$1 delta=$2 want=$3
    python3 "$ROOT/e2e/pixels.py" perturb "$PICTURE" "$P/perturbed.ppm" --every $every --delta $delta
    python3 "$ROOT/e2e/pixels.py" compare "$PICTURE" "$P/perturbed.ppm" --threshold $THRESHOLD --max-fraction $FRACTION >/dev/null; got=$?
    [ $got = $want ] || { echo "arm64-pixels: tolerance test: every ${every}th pixel moved by $delta gave $got, not $want"; return 1; }
  done
  echo "arm64-pixels: tolerance tested: all pixels moved by 2 and 0.1% by 3 pass, 0.2% by 3 fails"
}
for scene in "${SCENES[@]}"; do
  set -- $scene; name=$1 folder=$2; shift 2
  "$HOST_BIN" snapshot --photos "$P/photos/$folder" --size $SIZE --no-cache --timeout 600 --out "$P/amd64/$name.png" "$@" >"$P/amd64/$name.log" 2>&1 \
    || { echo "arm64-pixels: $name: the amd64 program failed ($P/amd64/$name.log)"; failed=1; continue; }
  if [ $name = grid ]; then PICTURE="$P/amd64/grid.png" tolerance_test || failed=1; fi
  start=$EPOCHREALTIME
  chroot "$R" "$PROGRAM" snapshot --photos "/tmp/pixels/$folder" --size $SIZE --no-cache --timeout 600 \
    --out "/tmp/pixels/out/$name.png" "$@" >"$P/arm64/$name.log" 2>&1 \
    || { echo "arm64-pixels: $name: the arm64 program failed ($P/arm64/$name.log)"; failed=1; continue; }
  took=$(awk "BEGIN { print $EPOCHREALTIME - $start }")
  cp "$R/tmp/pixels/out/$name.png" "$P/arm64/$name.png"
  figures=$(python3 "$ROOT/e2e/pixels.py" compare "$P/amd64/$name.png" "$P/arm64/$name.png" --threshold $THRESHOLD --max-fraction $FRACTION) \
    || failed=1
  exact=$(python3 "$ROOT/e2e/pixels.py" compare "$P/amd64/$name.png" "$P/arm64/$name.png" | cut -d'(' -f1-2)
  printf 'arm64-pixels: %-13s %s; any difference: %s (arm64 under qemu-user %.1f s)\n' "$name" "$figures" "${exact% -> *}" "$took"
done
rm -rf "$R/tmp/pixels"
exit $failed
