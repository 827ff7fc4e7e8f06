#!/bin/bash
# The `arm64` e2e stage (run once, not per display device): the arm64 package (make deb-arm64)
# installed by apt into Debian 13 arm64, booted with systemd by qemu-system-aarch64 (virt,
# 4 x Cortex-A53, 512 MB, virtio-gpu at 1920x1080, TCG), driven by arm64-driver.sh through uinput;
# the host checks the screendumps (harness.py --arch arm64): the grid against the amd64 build's
# `photokiosk snapshot` of the same photos, a tap, a swipe, the small board's flick, a 1080p clip.
# Usage: arm64-stage.sh OUT CACHE AMD64_PHOTOKIOSK
#   prepare   everything up to the boot (package, kernel, disk, reference)
#   boot      the VM and its checks (after prepare)
# Cached in CACHE/arm64 (kernel, busybox, the Debian base) and the build root's own cache.
set -euo pipefail
STEP=$1 OUT=$2 CACHE=$3 HOST_BIN=$4
ROOT=$(cd "$(dirname "$0")/.." && pwd)
E2E=$ROOT/e2e
A=$OUT/arm64
AC=$CACHE/arm64
KVER_PKG=linux-image-6.12.117+deb13-arm64   # pinned as the amd64 stages pin theirs
RESOLUTION=1920x1080
mkdir -p "$A" "$AC"

if [ "$STEP" = prepare ]; then
  t0=$(date +%s)
  # The package, and the build root (whose clang cross-compiles the uinput helper, whose apt
  # downloads Debian 13's arm64 kernel and busybox).
  DEB=$("$ROOT/scripts/build-deb-arm64.sh" --out "$A/deb" 2>"$A/deb.log" | tail -n 1) \
    || { tail -n 20 "$A/deb.log"; exit 1; }
  BR=$("$ROOT/scripts/arm64-buildroot.sh" | tail -n 1)
  if [ ! -f "$AC/kernel/Image" ] || ! ls "$AC"/busybox-static_*_arm64.deb >/dev/null 2>&1; then
    "$ROOT/scripts/arm64-buildroot.sh" --mount "$BR"
    chroot "$BR" sh -c "mkdir -p /tmp/dl && cd /tmp/dl && apt-get download $KVER_PKG:arm64 busybox-static:arm64" >"$A/download.log" 2>&1 \
      || chroot "$BR" sh -c "apt-get update -q && cd /tmp/dl && apt-get download $KVER_PKG:arm64 busybox-static:arm64" >>"$A/download.log" 2>&1 \
      || { "$ROOT/scripts/arm64-buildroot.sh" --release "$BR"; tail -n 5 "$A/download.log"; exit 1; }
    "$ROOT/scripts/arm64-buildroot.sh" --release "$BR"
    mv "$BR"/tmp/dl/*.deb "$AC/"
    rm -rf "$AC/kernel" && mkdir -p "$AC/kernel"
    dpkg-deb -x "$AC/${KVER_PKG}"_*.deb "$AC/kernel"
    [ -e "$AC/kernel/lib" ] || ln -s usr/lib "$AC/kernel/lib"   # Debian 13's kernel is in /usr/lib/modules
    depmod -b "$AC/kernel" "$(ls "$AC/kernel/lib/modules")"
    cp "$AC"/kernel/boot/vmlinuz-* "$AC/kernel/Image"    # arm64's is an uncompressed Image
  fi
  cp "$E2E/src/uitouch.c" "$BR/tmp/uitouch.c"
  chroot "$BR" /usr/libexec/swift/bin/clang --target=aarch64-linux-gnu -O2 -Wall -static -fuse-ld=lld \
    -o /tmp/uitouch /tmp/uitouch.c
  mv "$BR/tmp/uitouch" "$A/uitouch"
  # The small board's photos (as the smallboard stage) and the grid's reference from the amd64 build.
  python3 "$E2E/smallboard-photos.py" "$A/sb" >/dev/null
  # The clip played after them: the video stage's 1080p30 H.264 clip (video-clip.py's size, rate,
  # length and pattern), made here by GStreamer's x264enc once, but lighter to decode: the bars
  # stand still (P-frames of skipped blocks) and x264's fastest preset: under TCG the video
  # stage's clip (moving, veryfast, 6 Mbit/s) gave no poster within the decoder's 5 s here (its bound then), nor
  # did moving bars at ultrafast and 2 Mbit/s. Frames are still 1920x1080 I420 at 30/s.
  CLIP=$A/clip/99-clip-1080p30-still.mp4
  if [ ! -f "$CLIP" ]; then
    mkdir -p "$A/clip"
    python3 - "$E2E/video-clip.py" "$CLIP.tmp" <<'PY' || { echo "arm64: cannot make the clip (gst-launch-1.0 with x264enc)"; exit 1; }
import importlib.util, subprocess, sys
spec = importlib.util.spec_from_file_location('video_clip', sys.argv[1]); v = importlib.util.module_from_spec(spec); spec.loader.exec_module(v)
subprocess.run(['gst-launch-1.0', '-q', 'videotestsrc', f'num-buffers={v.FRAMES}', 'pattern=smpte', 'horizontal-speed=0', '!',
                f'video/x-raw,format=I420,width={v.CLIP[0]},height={v.CLIP[1]},framerate={v.FPS}/1', '!',
                'x264enc', 'speed-preset=ultrafast', 'tune=zerolatency', 'bitrate=1000', '!', 'mp4mux', '!', 'filesink', f'location={sys.argv[2]}'], check=True)
PY
    mv "$CLIP.tmp" "$CLIP"
  fi
  "$HOST_BIN" snapshot --photos "$ROOT/assets/photos" --size $RESOLUTION --no-cache --out "$A/reference-grid.png" >/dev/null
  python3 "$E2E/pixels.py" ppm "$A/reference-grid.png" "$A/reference-grid.ppm"
  # At most 0.5% of the screen may differ by more than 2 levels: the grid is the same program
  # on the same photos; what may differ is a thumbnail still fading in when the guest settles.
  python3 - "$A/sb/expect.json" "$A/reference-grid.ppm" "$A/expect.json" <<'PY'
import json, sys
rules = json.load(open(sys.argv[1]))
rules['arm64_grid'] = ['busy', 'stable', ['reference', sys.argv[2], 2, 0.005]]
json.dump(rules, open(sys.argv[3], 'w'))
PY
  "$E2E/build-arm64-rootfs.sh" "$AC" "$AC/kernel" "$A" "$DEB" "$A/uitouch" "$E2E/arm64-driver.sh" \
    "$A/sb/photos" "$ROOT/assets/photos" "$CLIP" >"$A/rootfs.log" 2>&1 || { tail -n 20 "$A/rootfs.log"; exit 1; }
  tail -n 1 "$A/rootfs.log"
  echo "arm64: prepared in $(( $(date +%s) - t0 )) s (package $(stat -c %s "$DEB") bytes: $(basename "$DEB"))"
  exit 0
fi

if [ "$STEP" = boot ]; then
  # a fresh disk per boot: what the last boot wrote must not help this one
  cp --sparse=always "$A/arm64-disk.img" "$A/arm64-disk-boot.img"
  python3 "$E2E/harness.py" --arch arm64 --display virtio --mode arm64 --kernel "$AC/kernel/Image" \
    --initrd "$A/arm64-initrd.gz" --drive "$A/arm64-disk-boot.img" --memory 512 --resolution $RESOLUTION \
    --expect "$A/expect.json" --out "$A" --timeout ${ARM64_TIMEOUT:-1500}
  rc=$?
  grep -hE '@@ARM64_(SCREEN|MEMORY|UPLOAD|UNIT|TOUCH|SWIPES|SYNC|REGISTRY|CLIP|PROBLEM)' "$A/console-arm64-virtio.log" | sed 's/^.*@@/arm64: /'
  exit $rc
fi
echo "arm64-stage.sh: unknown step $STEP" >&2; exit 64
