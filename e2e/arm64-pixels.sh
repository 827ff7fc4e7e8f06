#!/bin/bash
# The same pixels on both architectures: fixed scenes rendered headless by `photokiosk snapshot`,
# once by the amd64 build and once by the arm64 package's program (run through qemu-user in the
# arm64 stage's Debian 13 arm64 root, with that root's libraries), compared pixel by pixel.
# (--timeout: under qemu-user on a busy machine the slideshow takes minutes to get there.)
# Tolerance: at most 0.1% of a scene's pixels may differ, each by at most 2 levels per channel
# (where a SIMD path may round differently); every difference is printed, identical or not.
# Usage: arm64-pixels.sh ARM64_DIR AMD64_PHOTOKIOSK   (ARM64_DIR: arm64-stage.sh's, after prepare)
set -uo pipefail
A=$1 HOST_BIN=$2
ROOT=$(cd "$(dirname "$0")/.." && pwd)
R=${PIXELS_ROOT:-$A/arm64-root}              # an arm64 system with the package's libraries
PROGRAM=${PIXELS_PROGRAM:-/usr/bin/photokiosk}  # the arm64 program, inside it
P=$A/pixels
THRESHOLD=2 FRACTION=0.001
SIZE=1280x800
rm -rf "$P" && mkdir -p "$P/photos/samples" "$P/photos/big" "$P/photos/tagged" "$P/amd64" "$P/arm64" || exit 1
[ -x "$R$PROGRAM" ] || { echo "arm64-pixels: no arm64 root with the package ($R)"; exit 1; }
cp "$ROOT"/assets/photos/*.jpg "$P/photos/samples/"
# two 5120x2880 photos (the flick needs two): over twice the screen, so the zoom is tiled
cp $(ls "$A"/sb/photos/*-5120x2880-*.jpg | head -n 2) "$P/photos/big/"
# The overlay's scene needs a caption, a date and a place: a tagged copy (as scripts/screenshots.sh).
"$ROOT/scripts/install-deps.sh" libimage-exiftool-perl >/dev/null 2>&1
cp "$ROOT/assets/photos/mate-nature-YellowFlower.jpg" "$P/photos/tagged/"
exiftool -q -overwrite_original -ImageDescription="Sunflower by the garden wall" \
  -DateTimeOriginal="2024:08:17 10:32:00" -GPSLatitude=48.8584 -GPSLatitudeRef=N \
  -GPSLongitude=2.2945 -GPSLongitudeRef=E "$P/photos/tagged/mate-nature-YellowFlower.jpg" || exit 1
rm -rf "$R/tmp/pixels" && cp -r "$P/photos" "$R/tmp/pixels" && mkdir -p "$R/tmp/pixels/out"
# The Swift runtime reads its arguments from /proc/self/cmdline.
mountpoint -q "$R/proc" || { mount -t proc proc "$R/proc" && trap 'umount "$R/proc"' EXIT; }

# NAME FOLDER [snapshot options]: one scene, by both programs.
SCENES=(
  "grid samples"
  "album-chrome samples --photo 3 --chrome"
  "tiled-1to1 big --flick --photo 0"
  "ken-burns samples --slideshow --ken-burns --photo 2 --at 4.5"
  "info-overlay tagged --slideshow --at 12 --overlay-date-taken bottom-left --overlay-caption bottom-left --overlay-place top-right"
)
failed=0
for scene in "${SCENES[@]}"; do
  set -- $scene; name=$1 folder=$2; shift 2
  "$HOST_BIN" snapshot --photos "$P/photos/$folder" --size $SIZE --no-cache --timeout 900 --out "$P/amd64/$name.png" "$@" >"$P/amd64/$name.log" 2>&1 \
    || { echo "arm64-pixels: $name: the amd64 program failed ($P/amd64/$name.log)"; failed=1; continue; }
  start=$EPOCHREALTIME
  chroot "$R" "$PROGRAM" snapshot --photos "/tmp/pixels/$folder" --size $SIZE --no-cache --timeout 900 \
    --out "/tmp/pixels/out/$name.png" "$@" >"$P/arm64/$name.log" 2>&1 \
    || { echo "arm64-pixels: $name: the arm64 program failed ($P/arm64/$name.log)"; failed=1; continue; }
  took=$(awk "BEGIN { print $EPOCHREALTIME - $start }")
  cp "$R/tmp/pixels/out/$name.png" "$P/arm64/$name.png"
  # A slideshow frame (--at) is not always the same frame on amd64 either: two renders of the
  # Ken Burns scene by the amd64 program differed by a sub-pixel pan on a busy machine (24% of the
  # pixels). Up to two more amd64 renders are made then; the arm64 frame must match one of them,
  # and how much the amd64 renders differ among themselves is printed.
  attempt=1 last="$P/amd64/$name.png"
  while true; do
    figures=$(python3 "$ROOT/e2e/pixels.py" compare "$last" "$P/arm64/$name.png" --threshold $THRESHOLD --max-fraction $FRACTION) \
      && break
    [ $attempt -lt 3 ] || { failed=1; break; }
    attempt=$((attempt + 1)) last="$P/amd64/$name-$attempt.png"
    "$HOST_BIN" snapshot --photos "$P/photos/$folder" --size $SIZE --no-cache --timeout 900 --out "$last" "$@" >/dev/null 2>&1
    echo "arm64-pixels: $name: amd64 render $attempt against amd64 render 1: $(python3 "$ROOT/e2e/pixels.py" compare "$P/amd64/$name.png" "$last" | cut -d'(' -f1)"
  done
  exact=$(python3 "$ROOT/e2e/pixels.py" compare "$last" "$P/arm64/$name.png" | cut -d'(' -f1-2)
  printf 'arm64-pixels: %-13s %s; any difference: %s (amd64 render %d; arm64 under qemu-user %.1f s)\n' "$name" "$figures" "${exact% -> *}" $attempt "$took"
done
rm -rf "$R/tmp/pixels"
exit $failed
