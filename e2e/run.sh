#!/bin/bash
# End-to-end test on real DRM/KMS and libinput: boots Debian's kernel under QEMU (TCG) with a
# bochs-display and a virtio-gpu, injects touches through uinput, checks screendumps from the host.
#   e2e/run.sh                      # platform stages (GuestE2ETests) on bochs and virtio
#   MODES="platform app" e2e/run.sh # only these stages (default: every stage in ALL_MODES)
#   DISPLAYS=virtio e2e/run.sh
#   E2E_SKIP="seat faults" e2e/run.sh # switch stages off on purpose (counted and named as skipped)
#   E2E_LANES=1 e2e/run.sh         # one guest at a time (default: two lanes of guests at once, see below)
#   MODES=arm64 e2e/run.sh          # only the arm64 package in a Debian 13 arm64 VM (once, not per
#                                   # display; e2e/arm64-stage.sh), with the arm64/amd64 pixel parity
#                                   # check (e2e/arm64-pixels.sh)
# Every stage it cannot run where QEMU works (a package it could not install, a download that
# failed) is a failure, not a skip. Only where QEMU itself cannot run does it print one
# "e2e: SKIP ..." line, record every stage as skipped and exit 0.
# E2E_RESULTS=FILE appends one line per stage and display ("e2e STAGE/DISPLAY PASS|FAIL|SKIP why")
# for make test's summary (scripts/test_summary.py).
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
E2E=$ROOT/e2e
CACHE=${PHOTOKIOSK_E2E_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/photokiosk-e2e}
OUT=${PHOTOKIOSK_E2E_OUT:-$ROOT/.build/e2e}
KPKG=linux-image-6.1.0-50-amd64        # pinned: module names and load order were checked with it
DISPLAYS=${DISPLAYS:-bochs virtio}
ALL_MODES="platform app seat blank presence faults calib unit smallboard video plane panels powercut storage arm64"
MODES=${MODES:-$ALL_MODES}
E2E_SKIP=${E2E_SKIP:-}
SUDO=; [ "$(id -u)" = 0 ] || SUDO=sudo
RESULTS=${E2E_RESULTS:-/dev/null}
# record STAGE VERDICT WHY: one line per display for make test's summary.
record() { if [ "$1" = arm64 ]; then echo "e2e arm64 $2${3:+ $3}" >>"$RESULTS"; return; fi   # one VM, virtio-gpu
  if [ "$1" = plane ]; then echo "e2e plane/vkms $2${3:+ $3}" >>"$RESULTS"; return; fi   # one VM, its card is vkms
  for d in $DISPLAYS; do echo "e2e $1/$d $2${3:+ $3}" >>"$RESULTS"; done; }
has_mode() { [[ " $MODES " == *" $1 "* ]]; }
drop_mode() { MODES=$(echo " $MODES " | sed "s/ $1 / /; s/^ *//; s/ *$//"); }
# skip WHY: QEMU cannot run on this machine; nothing here can be tested.
skip() { echo "e2e: SKIP — $*"; for m in $MODES; do record "$m" SKIP "$*"; done; exit 0; }
# fail WHY: QEMU runs but the suite cannot be prepared; every stage left is a failure.
fail() { echo "e2e: FAIL — $*"; for m in $MODES; do record "$m" FAIL "$*"; done; exit 1; }
# cannot_run STAGE WHY: a stage whose needs are missing fails, unless E2E_SKIP switched it off.
cannot_run() { echo "e2e: FAIL — $1: $2"; record "$1" FAIL "$2"; drop_mode "$1"; E2E_FAILED=1; }
E2E_FAILED=0
for m in $ALL_MODES; do   # stages not asked for are named as skipped, never silently dropped
  if [[ " $E2E_SKIP " == *" $m "* ]]; then has_mode $m && { record $m SKIP "switched off by E2E_SKIP"; drop_mode $m; }
  elif ! has_mode $m; then record $m SKIP "not in MODES"; fi
done
# apt_download PKG: Debian's .deb into the current folder, refreshing the package lists once if needed.
apt_download() { ls "$1"_*.deb >/dev/null 2>&1 || apt-get download "$1" >/dev/null 2>&1 \
  || { $SUDO apt-get update >/dev/null 2>&1 && apt-get download "$1" >/dev/null 2>&1; }; }

# 1. Tools (Debian packages), installed when missing.
need=()
command -v qemu-system-x86_64 >/dev/null || need+=(qemu-system-x86)
[ -x /bin/busybox ] || need+=(busybox-static)
command -v depmod >/dev/null || need+=(kmod)
command -v cpio >/dev/null || need+=(cpio)
# ldconfig's list is longer than a pipe holds: grep -q or awk's exit would stop reading it,
# ldconfig would die of SIGPIPE and pipefail turn that into a failure (status 141; CI run of
# 2026-12-06 afternoon ended the e2e section so). Each reader here reads to the end.
ldconfig -p | grep 'libseat.so.1 .*x86-64' >/dev/null || need+=(libseat1)   # the seat stage's libseat
has_mode unit && ! command -v debootstrap >/dev/null && need+=(debootstrap)   # the unit stage's Debian guest
# the photos the grid stages and smallboard generate (cjpeg); smallboard's disk (mke2fs -d)
command -v cjpeg >/dev/null || need+=(libjpeg-turbo-progs)
has_mode smallboard && ! command -v mke2fs >/dev/null && need+=(e2fsprogs)
# the video stage: its disk, and GStreamer to make its clip (x264enc), decode the reference and
# give the guest its libraries and plugins (scripts/install-deps.sh installs the same); the plane
# stage plays the same clip from the same disk
if has_mode video || has_mode plane; then
  command -v mke2fs >/dev/null || need+=(e2fsprogs)
  command -v gst-launch-1.0 >/dev/null || need+=(gstreamer1.0-tools)
  for p in x264enc:gstreamer1.0-plugins-ugly avdec_h264:gstreamer1.0-libav qtdemux:gstreamer1.0-plugins-good \
           videoconvert:gstreamer1.0-plugins-base alsasink:gstreamer1.0-alsa; do
    gst-inspect-1.0 --exists ${p%%:*} 2>/dev/null || need+=(${p#*:})
  done
  ldconfig -p | grep 'libyuv.so.0 .*x86-64' >/dev/null || need+=(libyuv0)   # the kiosk draws the frames with it
fi
# the powercut stage: its disks (mke2fs), their checks (e2fsck, debugfs), the remote API's library
if has_mode powercut || has_mode storage; then
  command -v debugfs >/dev/null || need+=(e2fsprogs)
  ldconfig -p | grep 'libmicrohttpd.so.12 .*x86-64' >/dev/null || need+=(libmicrohttpd12)
fi
# the storage stage: dmsetup (and libdevmapper) copied into its initramfs
has_mode storage && ! command -v dmsetup >/dev/null && need+=(dmsetup)
# the arm64 stage: an arm64 VM, arm64 programs on this machine (binfmt), its Debian guest, its photos
if has_mode arm64; then
  command -v qemu-system-aarch64 >/dev/null || need+=(qemu-system-arm)
  [ -e /usr/libexec/qemu-binfmt/aarch64-binfmt-P ] || need+=(qemu-user-static binfmt-support)
  command -v debootstrap >/dev/null || need+=(debootstrap)
  command -v mke2fs >/dev/null || need+=(e2fsprogs)
fi
# the panels stage builds its HID reports with hid-tools (PyPI) in a venv
has_mode panels && command -v dpkg >/dev/null && ! dpkg -s python3-venv >/dev/null 2>&1 && need+=(python3-venv)
if [ ${#need[@]} -gt 0 ]; then
  echo "e2e: installing ${need[*]}"
  $SUDO apt-get install -y "${need[@]}" >/dev/null 2>&1 \
    || { $SUDO apt-get update >/dev/null 2>&1 && $SUDO apt-get install -y "${need[@]}" >/dev/null 2>&1; } \
    || echo "e2e: could not install ${need[*]} (no apt or no network)"
fi
command -v qemu-system-x86_64 >/dev/null || skip "qemu-system-x86_64 not available"
for tool in /bin/busybox depmod cpio; do command -v $tool >/dev/null || fail "$tool is missing"; done
qemu-system-x86_64 -accel tcg -machine none -display none -S -monitor none -serial none </dev/null >/dev/null 2>&1 &
QPID=$!; sleep 0.5
if ! kill -0 $QPID 2>/dev/null; then wait $QPID 2>/dev/null || true; skip "QEMU cannot start (TCG)"; fi
kill $QPID; wait $QPID 2>/dev/null || true

# 2. Kernel: Debian's package, downloaded once, extracted (not installed), vmlinux for fast PVH boot.
mkdir -p "$CACHE" "$OUT"
KROOT=$CACHE/kernel
if [ ! -f "$KROOT/vmlinux" ]; then
  (cd "$CACHE" && apt_download $KPKG) || fail "cannot download $KPKG (no network or apt source)"
  rm -rf "$KROOT" && mkdir -p "$KROOT"
  dpkg-deb -x "$CACHE"/${KPKG}_*.deb "$KROOT"
  depmod -b "$KROOT" $(ls "$KROOT/lib/modules")
  python3 - "$KROOT" <<'PY'
import lzma, glob, sys
k = sys.argv[1]
d = open(glob.glob(k + '/boot/vmlinuz-*')[0], 'rb').read()
open(k + '/vmlinux', 'wb').write(lzma.LZMADecompressor().decompress(d[d.find(b'\xfd7zXZ\x00'):]))
PY
fi

# 2b. systemd-udevd for the guest (Debian's udev package, extracted): real device hotplug for
#     libinput and DRM. Without it the guest falls back to udev database stubs (no hotplug).
UDEV_TREE=$CACHE/udev-tree
if [ ! -x "$UDEV_TREE/bin/udevadm" ]; then
  if (cd "$CACHE" && apt_download udev); then
    rm -rf "$CACHE/udev-x" "$UDEV_TREE"; mkdir -p "$CACHE/udev-x" "$UDEV_TREE"/{bin,lib/systemd,lib/udev/rules.d,etc/udev}
    dpkg-deb -x "$CACHE"/udev_*.deb "$CACHE/udev-x"
    cp "$CACHE/udev-x/bin/udevadm" "$UDEV_TREE/bin/udevadm"; ln -sf /bin/udevadm "$UDEV_TREE/lib/systemd/systemd-udevd"
    cp "$CACHE"/udev-x/lib/udev/rules.d/{50-udev-default,60-input-id,60-evdev,60-drm,70-touchpad}.rules "$UDEV_TREE/lib/udev/rules.d/"
    cp /lib/udev/rules.d/*libinput* "$UDEV_TREE/lib/udev/rules.d/" 2>/dev/null || true
    cp /lib/udev/libinput-* "$UDEV_TREE/lib/udev/" 2>/dev/null || true
    ldd "$UDEV_TREE/bin/udevadm" | awk '/=> \//{print $3} /^\t\/[^ ]+ \(/{print $1}' | while read l; do
      mkdir -p "$UDEV_TREE$(dirname $l)"; cp -L $l "$UDEV_TREE$l"; done
  else
    echo "e2e: note: cannot download Debian's udev package; input hotplug is not tested"
  fi
fi
[ -x "$UDEV_TREE/bin/udevadm" ] && export EXTRA_TREE=$UDEV_TREE

# 3. What runs in the guest: the test bundle (GuestE2ETests), the app, the uinput helper.
cd "$ROOT"
X86_MODES=$(echo " $MODES " | sed 's/ arm64 / /; s/^ *//; s/ *$//')   # the stages that boot the x86 guest
# the stages that need the debug build and the shared initramfs (powercut, storage and plane have
# their own initramfs and run the release program)
BUNDLE_MODES=$(echo " $X86_MODES " | sed 's/ powercut / /; s/ storage / /; s/ plane / /; s/^ *//; s/ *$//')
if [ -n "$BUNDLE_MODES" ]; then
  swift build --build-tests > "$OUT/build.log" 2>&1 || { tail -30 "$OUT/build.log"; fail "build ($OUT/build.log)"; }
elif has_mode arm64 || [ "${E2E_PROGRAM:-release}" = debug ]; then   # only the program (arm64: its snapshot is the grid's reference)
  swift build --product photokiosk > "$OUT/build.log" 2>&1 || { tail -30 "$OUT/build.log"; fail "build ($OUT/build.log)"; }
fi
BIN=$(swift build --show-bin-path)
# The program the guests run is the release build users get (the package's, stripped). Under TCG the
# debug build spends 60-90 s in Swift's generic metadata before its first log line: the app stage
# on bochs took 218 s with it and 73 s with the release build, side by side on the same loaded host.
# Debug-only checks (the loop-thread assertions) are the unit tests' job. E2E_PROGRAM=debug: the debug one.
PROGRAM=$BIN/photokiosk
if [ -n "$X86_MODES" ] && [ "${E2E_PROGRAM:-release}" != debug ]; then
  swift build -c release --static-swift-stdlib --product photokiosk > "$OUT/build-release.log" 2>&1 \
    || { tail -30 "$OUT/build-release.log"; fail "release build ($OUT/build-release.log)"; }
  mkdir -p "$OUT/release" && PROGRAM=$OUT/release/photokiosk
  strip -o "$PROGRAM" "$(swift build -c release --static-swift-stdlib --show-bin-path)/photokiosk"
fi
gcc -O2 -Wall -static -o "$OUT/uitouch" "$E2E/src/uitouch.c"
FILES=("$BIN/PhotoKioskPackageTests.xctest" "$OUT/uitouch")
# The stages that walk the photo grid get generated photos (enough to scroll, each its own colour)
# and the tap points and pixel rules grid-photos.py computes from the grid's layout rule: they
# depend neither on the bundled samples nor on guessed positions. Kept in $OUT/grid.
GRID=$OUT/grid
GRID_EXPECT=()
if has_mode app || has_mode seat || has_mode blank || has_mode presence || has_mode faults || has_mode calib || has_mode unit; then
  if command -v cjpeg >/dev/null && python3 "$E2E/grid-photos.py" "$GRID" >"$OUT/grid-photos.log" 2>&1; then
    rm -rf "$OUT/photos" && cp -r "$GRID/photos" "$OUT/photos" && cp "$GRID/grid.env" "$OUT/grid.env"
    GRID_EXPECT=(--expect "$GRID/expect.json")
  else
    for m in app seat blank presence faults calib unit; do
      has_mode $m && cannot_run $m "cannot generate the grid's photos (cjpeg; $OUT/grid-photos.log)"
    done
  fi
fi
if [[ " $MODES " == *" app "* ]]; then
  FILES+=("$PROGRAM" "$E2E/app-driver.sh" "$OUT/photos" "$OUT/grid.env")
fi
if [[ " $MODES " == *" blank "* ]]; then   # the display schedule: DPMS off, a tap wakes it
  [[ " ${FILES[*]} " == *"/photokiosk "* ]] || FILES+=("$PROGRAM" "$OUT/photos" "$OUT/grid.env")
  FILES+=("$E2E/blank-driver.sh")
fi
if [[ " $MODES " == *" seat "* ]]; then   # Debian's seatd, downloaded once
  if [ ! -x "$CACHE/seatd-x/usr/sbin/seatd" ] && (cd "$CACHE" && apt_download seatd); then
    rm -rf "$CACHE/seatd-x" && dpkg-deb -x "$CACHE"/seatd_*.deb "$CACHE/seatd-x"
  fi
  LIBSEAT=$(ldconfig -p | awk '/libseat.so.1 .*x86-64/ && !found {print $NF; found = 1}')
  if [ -x "$CACHE/seatd-x/usr/sbin/seatd" ] && [ -n "$LIBSEAT" ]; then
    [[ " ${FILES[*]} " == *"/photokiosk "* ]] || FILES+=("$PROGRAM" "$OUT/photos" "$OUT/grid.env")
    # Renamed so only seat-driver.sh installs it: the test bundle and photokiosk search their own
    # folder (rpath $ORIGIN), and the other modes must keep opening devices directly.
    cp -L "$LIBSEAT" "$CACHE/seatd-x/libseat-e2e.so"
    FILES+=("$CACHE/seatd-x/usr/sbin/seatd" "$CACHE/seatd-x/libseat-e2e.so" "$E2E/seat-driver.sh")
  else
    cannot_run seat "no seatd package or no libseat.so.1 on the host (apt-get install libseat1 seatd failed)"
  fi
fi
# The fault stage: touch, display and DRM master taken away and given back. Device hotplug
# reaches the app only through udevd, so the stage needs Debian's udev package (step 2b).
if [[ " $MODES " == *" faults "* ]] && [ ! -x "$UDEV_TREE/bin/udevadm" ]; then
  cannot_run faults "no systemd-udevd for the guest (Debian's udev package could not be downloaded)"
fi
if [[ " $MODES " == *" faults "* ]]; then
  [[ " ${FILES[*]} " == *"/photokiosk "* ]] || FILES+=("$PROGRAM" "$OUT/photos" "$OUT/grid.env")
  gcc -O2 -Wall -static -I/usr/include/libdrm -o "$OUT/drmhold" "$E2E/src/drmhold.c"
  FILES+=("$E2E/faults-driver.sh" "$OUT/drmhold")
fi
if [[ " $MODES " == *" calib "* ]]; then   # touch calibration and rotation with the app
  [[ " ${FILES[*]} " == *"/photokiosk "* ]] || FILES+=("$PROGRAM" "$OUT/photos" "$OUT/grid.env")
  FILES+=("$E2E/calib-driver.sh")
fi
# Real touch panels: their HID report descriptors through /dev/uhid and hid-multitouch (panels.py,
# panels-driver.sh). hid-tools builds the reports on the host, from a venv of its own (GPL: used
# as a tool, not linked). libinput takes a device only with udev's properties: udevd is needed.
HIDTOOLS=$CACHE/hidtools-venv
if has_mode panels && [ ! -x "$UDEV_TREE/bin/udevadm" ]; then
  cannot_run panels "no systemd-udevd for the guest (Debian's udev package could not be downloaded)"
elif has_mode panels && ! "$HIDTOOLS/bin/python" -c 'import hidtools.hid' 2>/dev/null \
    && ! { rm -rf "$HIDTOOLS" && python3 -m venv "$HIDTOOLS" \
           && "$HIDTOOLS/bin/pip" install -q --no-deps hid-tools==0.12 parse==1.20.2 >"$OUT/hidtools.log" 2>&1; }; then
  cannot_run panels "cannot install hid-tools into $HIDTOOLS ($OUT/hidtools.log)"
elif has_mode panels && ! "$HIDTOOLS/bin/python" "$E2E/panels.py" build "$OUT/panels"; then
  cannot_run panels "cannot build the panels' reports (e2e/panels.py build)"
fi
if has_mode panels; then
  [[ " ${FILES[*]} " == *"/photokiosk "* ]] || FILES+=("$PROGRAM")
  gcc -O2 -Wall -static -o "$OUT/uhidpanel" "$E2E/src/uhidpanel.c"
  FILES+=("$OUT/uhidpanel" "$E2E/panels-driver.sh" "$OUT/panels")
  PANEL_MODULES="uhid hid-multitouch"
fi
# A motion sensor on a simulated GPIO line: Debian's kernel has no gpio-sim, so it is built once as
# a module from Debian's kernel source for the pinned kernel (build-gpio-sim.sh, ~35 s, cached under
# its own name); configfs (a module in Debian's kernel) is where the guest makes the chip.
GPIO_SIM=$CACHE/gpio-sim-$(ls "$KROOT/lib/modules").ko
if has_mode presence && [ ! -f "$GPIO_SIM" ] && ! SUDO=$SUDO "$E2E/build-gpio-sim.sh" "$CACHE" "$(ls "$KROOT/lib/modules")" "$GPIO_SIM" \
    >"$OUT/gpio-sim-build.log" 2>&1; then
  cannot_run presence "cannot build gpio-sim.ko ($OUT/gpio-sim-build.log)"
fi
# The TV over HDMI-CEC in the same boot: vivid's emulated HDMI output (the frame's adapter) and
# input (the TV's), which talk to each other; Debian's v4l-utils (downloaded once, like seatd)
# gives cec-ctl and cec-follower, which plays the TV. vivid is loaded by the driver with its own
# parameters (LATER_MODULES), not at boot: the other stages sharing this initramfs keep their devices.
if has_mode presence && [ ! -x "$CACHE/v4l-utils-x/usr/bin/cec-follower" ] && (cd "$CACHE" && apt_download v4l-utils); then
  rm -rf "$CACHE/v4l-utils-x.tmp" && dpkg-deb -x "$CACHE"/v4l-utils_*.deb "$CACHE/v4l-utils-x.tmp" \
    && mv "$CACHE/v4l-utils-x.tmp" "$CACHE/v4l-utils-x"
fi
if has_mode presence && [ ! -x "$CACHE/v4l-utils-x/usr/bin/cec-follower" ]; then
  cannot_run presence "no cec-ctl/cec-follower for the guest (Debian's v4l-utils could not be downloaded)"
fi
if has_mode presence; then
  [[ " ${FILES[*]} " == *"/photokiosk "* ]] || FILES+=("$PROGRAM" "$OUT/photos" "$OUT/grid.env")
  cp "$GPIO_SIM" "$OUT/gpio-sim.ko"
  FILES+=("$OUT/gpio-sim.ko" "$E2E/presence-driver.sh"
          "$CACHE/v4l-utils-x/usr/bin/cec-ctl" "$CACHE/v4l-utils-x/usr/bin/cec-follower")
  PRESENCE_MODULES="configfs"
  PRESENCE_LATER_MODULES="vivid"
fi
[ -z "$BUNDLE_MODES" ] || EXTRA_MODULES="${PANEL_MODULES:-} ${PRESENCE_MODULES:-}" LATER_MODULES="${PRESENCE_LATER_MODULES:-}" \
  "$E2E/build-initrd.sh" "$KROOT" "$OUT/initrd.gz" "${FILES[@]}"
# The unit stage boots its own guest: Debian with systemd as init and the package (make deb)
# installed, so the kiosk runs as photokiosk.service in its sandbox (build-unit-rootfs.sh).
if has_mode unit; then
  if UNIT_DEB=$("$ROOT/scripts/build-deb.sh" --out "$OUT/unit-deb" 2>"$OUT/unit-deb.log" | tail -n 1) \
     && "$E2E/build-unit-rootfs.sh" "$KROOT" "$OUT/unit-initrd.gz" "$UNIT_DEB" "$OUT/uitouch" "$E2E/unit-driver.sh" \
          "$GRID/photos" "$GRID/grid.env" \
          >"$OUT/unit-rootfs.log" 2>&1; then
    tail -n 1 "$OUT/unit-rootfs.log"
  else
    cannot_run unit "no package or Debian guest ($OUT/unit-deb.log, $OUT/unit-rootfs.log)"
  fi
fi
# The small board: its own initramfs (no test bundle: 256 MB of RAM); the photos generated here,
# photokiosk and its libraries on a disk image, as on a frame's SD card (an initramfs is RAM).
SB=$OUT/smallboard
if has_mode smallboard && { ! command -v cjpeg >/dev/null || ! command -v mke2fs >/dev/null; }; then
  cannot_run smallboard "cjpeg or mke2fs missing (apt-get install libjpeg-turbo-progs e2fsprogs failed)"
fi
if has_mode smallboard; then
  rm -rf "$SB/disk" && mkdir -p "$SB/disk/cache" "$SB/disk/lib"
  python3 "$E2E/smallboard-photos.py" "$SB" && cp -r "$SB/photos" "$SB/disk/photos" \
    && strip -o "$SB/disk/photokiosk" "$PROGRAM" \
    && { ldd "$PROGRAM" | awk '/=> \//{print $3} /^\t\/[^ ]+ \(/{print $1}' | xargs -I{} cp -L {} "$SB/disk/lib/"; } \
    && mke2fs -q -F -t ext2 -d "$SB/disk" "$SB/disk.img" $(( $(du -sm "$SB/disk" | cut -f1) * 2 + 64 ))M \
    && EXTRA_MODULES="virtio_blk ext4" "$E2E/build-initrd.sh" "$KROOT" "$SB/initrd.gz" "$OUT/uitouch" "$E2E/smallboard-driver.sh" \
    || cannot_run smallboard "cannot prepare its photos, disk image or initramfs"
fi

# The video stage (video-driver.sh, video-clip.py): the small board's way (photokiosk and its
# libraries on a disk), plus GStreamer's library, the plugins a clip needs and what they link;
# the photos, the clip and its decoded reference frames made once per version of the scripts.
VD=$OUT/video
# (the clip's sound: the AAC parser, conversion, ALSA; level measures what the loopback card hears)
VIDEO_PLUGINS="coreelements typefindfunctions isomp4 matroska playback libav vpx videoconvertscale videofilter app
  audioparsers audioconvert audioresample alsa level"
if has_mode video || has_mode plane; then
  gst_dir=/usr/lib/$(gcc -print-multiarch)/gstreamer-1.0
  stamp=$VD/prepared-$(cat "$E2E/video-clip.py" "$E2E/smallboard-photos.py" | sha256sum | cut -c1-12)
  rm -rf "$VD/disk" && mkdir -p "$VD/disk/cache" "$VD/disk/lib" "$VD/disk/gst" "$VD/disk/alsa"
  { [ -f "$stamp" ] || { rm -rf "$VD/photos" && python3 "$E2E/video-clip.py" prepare "$VD" >"$OUT/video-prepare.log" 2>&1 && touch "$stamp"; }; } \
    && cp -r "$VD/photos" "$VD/disk/photos" \
    && strip -o "$VD/disk/photokiosk" "$PROGRAM" \
    && for p in $VIDEO_PLUGINS; do cp -L "$gst_dir/libgst$p.so" "$VD/disk/gst/"; done \
    && cp -r /usr/share/alsa/alsa.conf /usr/share/alsa/cards /usr/share/alsa/pcm "$VD/disk/alsa/" \
    && cp -L "$(command -v gst-launch-1.0)" "$VD/disk/" \
    && { { ldd "$PROGRAM"; ldd $(ldconfig -p | awk '/(libgstreamer-1.0|libyuv).so.0 .*x86-64/{print $NF}'); ldd "$VD"/disk/gst/*.so;
           ldd "$VD/disk/gst-launch-1.0"; } \
         | awk '/=> \//{print $3} /^\t\/[^ ]+ \(/{print $1}' | sort -u | xargs -I{} cp -L {} "$VD/disk/lib/"; } \
    && cp -L "$(ldconfig -p | awk '/libgstreamer-1.0.so.0 .*x86-64/{print $NF}')" "$VD/disk/lib/" \
    && cp -L "$(ldconfig -p | awk '/libyuv.so.0 .*x86-64/{print $NF}')" "$VD/disk/lib/" \
    && rm -f "$VD/disk.img" && mke2fs -q -F -t ext2 -d "$VD/disk" "$VD/disk.img" $(( $(du -sm "$VD/disk" | cut -f1) + 128 ))M \
    || { for m in video plane; do has_mode $m && cannot_run $m "cannot prepare the clip, photos or disk image ($OUT/video-prepare.log)"; done; true; }
fi
if has_mode video && ! EXTRA_MODULES="virtio_blk ext4 snd-aloop" "$E2E/build-initrd.sh" "$KROOT" "$VD/initrd.gz" "$OUT/uitouch" "$E2E/video-driver.sh"; then
  cannot_run video "cannot build its initramfs"
fi

# The plane stage (plane-driver.sh, plane.py, src/planeshot.c): the video stage's clip and disk on
# vkms, the one card here with an overlay plane (QEMU's display devices have none). Debian's kernel
# does not build vkms, so build-vkms.sh builds it once from Debian's kernel source for the pinned
# kernel (~30 s, cached under its own name, like gpio-sim.ko). Its initramfs has no bochs or
# virtio-gpu module, so vkms is the guest's only card; the modules vkms.ko links (its depends=,
# written by modpost: drm, drm_kms_helper, drm_shmem_helper) load at boot.
PL=$OUT/plane
VKMS=$CACHE/vkms-$(ls "$KROOT/lib/modules").ko
if has_mode plane && [ ! -f "$VKMS" ] && ! SUDO=$SUDO "$E2E/build-vkms.sh" "$CACHE" "$(ls "$KROOT/lib/modules")" "$VKMS" \
    >"$OUT/vkms-build.log" 2>&1; then
  cannot_run plane "cannot build vkms.ko ($OUT/vkms-build.log)"
fi
if has_mode plane; then
  mkdir -p "$PL" && cp "$VKMS" "$PL/vkms.ko" \
    && gcc -O2 -Wall -static -I/usr/include/libdrm -o "$OUT/planeshot" "$E2E/src/planeshot.c" \
    && python3 "$E2E/plane.py" prepare "$VD" "$PL" \
    && BASE_MODULES="virtio_pci uinput evdev" EXTRA_MODULES="virtio_blk ext4 $(modinfo -F depends "$VKMS" | tr , ' ')" \
       "$E2E/build-initrd.sh" "$KROOT" "$PL/initrd.gz" "$OUT/uitouch" "$OUT/planeshot" "$PL/vkms.ko" "$E2E/plane-driver.sh" "$PL/plane.env" \
    || cannot_run plane "cannot build planeshot, its tap point or its initramfs"
fi

# Power cuts (e2e/powercut.py, powercut-driver.sh): the release build (the debug one takes a
# minute to its first frame under TCG), on a read-only disk with its libraries and the new
# photos; the state on an ext4 disk; a small initramfs (uinput for the reorders' touchscreen),
# uncompressed: 30 boots.
PC=$OUT/powercut
ST=$OUT/storage
if has_mode storage && ! command -v dmsetup >/dev/null; then cannot_run storage "dmsetup missing (apt-get install dmsetup failed)"; fi
for m in powercut storage; do
  if has_mode $m && { ! command -v debugfs >/dev/null || ! command -v cjpeg >/dev/null; }; then
    cannot_run $m "e2fsprogs or cjpeg missing (apt-get install e2fsprogs libjpeg-turbo-progs failed)"
  fi
done
# the storage stage reuses the powercut stage's photos and program disk
if has_mode powercut || has_mode storage; then
  stamp=$PC/prepared-$(sha256sum "$E2E/powercut.py" | cut -c1-12)   # photos made once per version of the script
  { [ -f "$stamp" ] || { python3 "$E2E/powercut.py" prepare "$PC" && touch "$stamp"; }; } \
    && swift build -c release --static-swift-stdlib --product photokiosk >"$OUT/powercut-build.log" 2>&1 \
    && python3 "$E2E/powercut.py" disk "$PC" "$(swift build -c release --static-swift-stdlib --show-bin-path)/photokiosk" "$OUT/uitouch" \
    && EXTRA_TREE= BASE_MODULES="virtio_pci bochs virtio-gpu uinput evdev" EXTRA_MODULES="virtio_blk ext4 virtio_net" \
       INIT="$E2E/powercut-driver.sh" GZIP_CMD=cat "$E2E/build-initrd.sh" "$KROOT" "$PC/initrd" \
    || { for m in powercut storage; do has_mode $m && cannot_run $m "cannot prepare the powercut photos, release build, disks or initramfs ($OUT/powercut-build.log)"; done; true; }
fi
# Failing storage (e2e/storage.py, storage-driver.sh; issue 33 item 2): the powercut guest's
# disks and program, plus device-mapper (dm-mod, dm-flakey) and dmsetup in its own initramfs.
if has_mode storage; then
  mkdir -p "$ST"
  EXTRA_TREE= BASE_MODULES="virtio_pci bochs virtio-gpu" EXTRA_MODULES="virtio_blk ext4 virtio_net dm-mod dm-flakey" \
    INIT="$E2E/storage-driver.sh" GZIP_CMD=cat "$E2E/build-initrd.sh" "$KROOT" "$ST/initrd" "$(command -v dmsetup)" \
    || cannot_run storage "cannot build its initramfs"
fi

# The arm64 stage: the package (make deb-arm64), its Debian 13 arm64 guest, the reference.
ARM64_T0=$(date +%s)
if has_mode arm64 && ! "$E2E/arm64-stage.sh" prepare "$OUT" "$CACHE" "$BIN/photokiosk" >"$OUT/arm64-prepare.log" 2>&1; then
  tail -n 15 "$OUT/arm64-prepare.log"
  cannot_run arm64 "no arm64 package, guest or reference ($OUT/arm64-prepare.log)"
fi
has_mode arm64 && tail -n 2 "$OUT/arm64-prepare.log"
ARM64_PREPARED=$(( $(date +%s) - ARM64_T0 ))

# 4. Boot once per display device and mode; the harness checks every screendump.
rc=$E2E_FAILED
FIRST=${DISPLAYS%% *}

# boot_stage MODE DISPLAY: one boot of the bundle's guest, one results line; false when it failed.
boot_stage() {
  local mode=$1 d=$2 booted=0 why append args
  args=(--initrd "$OUT/initrd.gz" "${GRID_EXPECT[@]}" ${EXPECT_ARGS:-})
  [ $mode = unit ] && args=(--initrd "$OUT/unit-initrd.gz" "${GRID_EXPECT[@]}" ${EXPECT_ARGS:-})
  # a fresh disk per boot: the caches the last boot wrote there must not help this one
  # 512 MB: a Pi Zero 2 W / 3 A+. In 256 MB a 1080p decoder does not fit beside the album (OOM on
  # virtio-gpu, whose buffers are guest RAM); there the app decodes clips at half size instead.
  [ $mode = video ] && cp --sparse=always "$VD/disk.img" "$VD/disk-$d.img" && args=(--initrd "$VD/initrd.gz" --memory 512 \
    --resolution 1920x1200 --drive "$VD/disk-$d.img" --expect "$VD/expect.json" --timeout 900)
  [ $mode = smallboard ] && cp "$SB/disk.img" "$SB/disk-$d.img" && args=(--initrd "$SB/initrd.gz" --memory 256 \
    --resolution 1920x1080 --drive "$SB/disk-$d.img" --expect "$SB/expect.json" --timeout 900)
  # the blank stage's wall-clock jumps (issue 33 item 5) do not depend on the GPU: first display only
  append=${E2E_APPEND:-}; [ $mode = blank ] && [ $d = "$FIRST" ] && append="$append pk.clock=1"
  python3 "$E2E/harness.py" --display $d --mode $mode --kernel "$KROOT/vmlinux" "${args[@]}" \
    --out "$OUT" --append "$append" | tee "$OUT/harness-$mode-$d.txt" || booted=1
  # the panels: the app's reports against where the reports put the touches, one table row per run
  if [ $mode = panels ]; then
    python3 "$E2E/panels.py" check "$OUT/panels/expect.json" "$OUT/console-panels-$d.log" $d \
      > "$OUT/panels-table-$d.txt" || booted=1
    cat "$OUT/panels-table-$d.txt"
  fi
  if [ $booted = 0 ]; then echo "e2e $mode/$d PASS" >>"$RESULTS"; return 0; fi
  # why, in the summary's last lines (CI shows only the end of the output): the guest's own
  # failure line and the harness's verdict, shortened
  why=$( { grep -ao '@@[A-Z0-9_]*FAIL.*' "$OUT/console-$mode-$d.log" 2>/dev/null | head -n 1 || true
           grep -ao 'RESULT .*' "$OUT/harness-$mode-$d.txt" | tail -n 1 || true; } | tr '\n' ' ' | cut -c1-400)
  echo "e2e $mode/$d FAIL $why; console log in $OUT" >>"$RESULTS"; return 1
}

# display_stages DISPLAY: every bundle stage on it. The panels and presence stages check HID
# descriptors and touch mapping, and a GPIO line, which do not depend on the GPU: they boot on the
# first display device only, to keep CI's time for the stages that do.
display_stages() {
  local d=$1 mode r=0
  for mode in $BUNDLE_MODES; do
    { [ $mode = panels ] || [ $mode = presence ]; } && [ $d != "$FIRST" ] && continue
    boot_stage $mode $d || r=1
  done
  return $r
}

# The clip on vkms's overlay plane: one boot. Its display device is bochs-display, whatever DISPLAYS
# says: no driver binds it (the kiosk draws on vkms), so it only has to be the cheapest. Its outputs
# (console log, shots, QMP socket) go to $PL: a bochs stage in the other lane uses $OUT/qmp-bochs.sock.
plane_stage() {
  local t=$(date +%s) r=0 why
  cp --sparse=always "$VD/disk.img" "$PL/disk.img"       # a fresh disk: no caches from an earlier boot
  rm -f "$PL/shots.img" && truncate -s 16M "$PL/shots.img"   # zeros: a shot the guest did not write is no PPM
  if python3 "$E2E/harness.py" --display bochs --mode plane --kernel "$KROOT/vmlinux" --initrd "$PL/initrd.gz" \
       --memory 512 --drive "$PL/disk.img" --shots "$PL/shots.img" --expect "$PL/expect.json" --timeout 600 \
       --out "$PL" --append "${E2E_APPEND:-}" | tee "$PL/harness.txt"; then
    echo "e2e plane/vkms PASS" >>"$RESULTS"
  else
    why=$( { grep -ao '@@[A-Z0-9_]*FAIL.*' "$PL/console-plane-bochs.log" 2>/dev/null | head -n 1 || true
             grep -ao 'RESULT .*' "$PL/harness.txt" | tail -n 1 || true; } | tr '\n' ' ' | cut -c1-400)
    echo "e2e plane/vkms FAIL $why; console log in $PL" >>"$RESULTS"; r=1
  fi
  echo "e2e: plane stage $(( $(date +%s) - t )) s (vkms)"
  return $r
}

# Power cuts: on one display device (the first in DISPLAYS): the storage path does not depend on it.
powercut_stage() {
  local d=$FIRST t=$(date +%s) r=0
  if python3 "$E2E/powercut.py" run --kernel "$KROOT/vmlinux" --initrd "$PC/initrd" --dir "$PC" --display $d \
       | tee "$OUT/powercut-$d.log"; then echo "e2e powercut/$d PASS" >>"$RESULTS"
  else echo "e2e powercut/$d FAIL see $OUT/powercut-$d.log and $PC/logs" >>"$RESULTS"; r=1; fi
  echo "e2e: powercut stage $(( $(date +%s) - t )) s on $d"
  return $r
}

# Failing storage: one boot on one display device (the first in DISPLAYS), about 2-3 minutes. It
# reuses the power cuts' photos, uploads and program disk, so it runs after them in the same lane.
storage_stage() {
  local d=$FIRST t=$(date +%s) r=0
  if timeout 600 python3 "$E2E/storage.py" run --kernel "$KROOT/vmlinux" --initrd "$ST/initrd" --powercut "$PC" --dir "$ST" \
       --display $d | tee "$OUT/storage-$d.log"; then echo "e2e storage/$d PASS" >>"$RESULTS"
  else echo "e2e storage/$d FAIL see $OUT/storage-$d.log and $ST/console.log" >>"$RESULTS"; r=1; fi
  echo "e2e: storage stage $(( $(date +%s) - t )) s on $d"
  return $r
}

arm64_stage() {   # once, on virtio-gpu; meanwhile the same scenes drawn by both builds
  # (the parity check needs only the prepared arm64 root: beside the VM it adds little wall time)
  local t=$(date +%s) r=0 booted pixels
  "$E2E/arm64-pixels.sh" "$OUT/arm64" "$BIN/photokiosk" >"$OUT/arm64/pixels.log" 2>&1 & pixels=$!
  if "$E2E/arm64-stage.sh" boot "$OUT" "$CACHE" "$BIN/photokiosk"; then echo "e2e arm64 PASS" >>"$RESULTS"
  else echo "e2e arm64 FAIL console log in $OUT/arm64" >>"$RESULTS"; r=1; fi
  booted=$(( $(date +%s) - t ))
  if wait $pixels; then echo "check arm64-pixel-parity PASS" >>"$RESULTS"
  else echo "check arm64-pixel-parity FAIL see $OUT/arm64/pixels.log" >>"$RESULTS"; r=1; fi
  cat "$OUT/arm64/pixels.log"
  echo "e2e: arm64 stage $(( ARM64_PREPARED + $(date +%s) - t )) s: prepare $ARM64_PREPARED s, VM $booted s, pixel parity (beside it) done $(( $(date +%s) - t )) s after the VM started"
  return $r
}

# Two lanes at once: every x86 guest has one vCPU, so one TCG thread and one host core. The first
# lane boots the first display device's stages, then the arm64 VM; the second the other display
# devices' stages, then the 30 power cuts and the failing storage (about equal halves: ~14 and
# ~16 min on a 2-core host).
# One lane took 38 min in CI. The second lane's output is printed after the first's;
# E2E_LANES=1 runs both halves one after the other.
lane_first() { local r=0; display_stages $FIRST || r=1; if has_mode plane; then plane_stage || r=1; fi
  if has_mode arm64; then arm64_stage || r=1; fi; return $r; }
lane_second() { local r=0 d
  for d in $DISPLAYS; do [ $d = "$FIRST" ] || display_stages $d || r=1; done
  if has_mode powercut; then powercut_stage || r=1; fi
  if has_mode storage; then storage_stage || r=1; fi
  return $r; }
t_lanes=$(date +%s)
if [ "${E2E_LANES:-2}" = 1 ]; then
  lane_first || rc=1
  lane_second || rc=1
else
  lane_second >"$OUT/lane-second.log" 2>&1 & second=$!
  lane_first || rc=1
  t_first=$(( $(date +%s) - t_lanes ))
  wait $second || rc=1
  echo "== e2e: the second lane (the other display devices, the power cuts, the failing storage):"
  cat "$OUT/lane-second.log"
  echo "e2e: lanes done in $(( $(date +%s) - t_lanes )) s (the first lane $t_first s)"
fi
if has_mode panels; then for d in $DISPLAYS; do cat "$OUT/panels-table-$d.txt" 2>/dev/null || true; done; fi
echo "e2e: $([ $rc = 0 ] && echo PASS || echo FAIL) (screendumps and console logs in $OUT)"
exit $rc
