#!/bin/bash
# The unit stage's guest: a Debian 12 system (debootstrap) with the photokiosk package installed
# by apt, booted with systemd as init from an initramfs, so the kiosk runs under its own unit
# and sandbox. The driver (unit-driver.sh) runs as pk-e2e.service on the serial console.
# The root is read-only while the kiosk runs (readonly-root.sh); only its state folder is written.
# Usage: build-unit-rootfs.sh KERNEL_ROOT OUT.cpio.gz PACKAGE.deb UITOUCH DRIVER PHOTOS GRID_ENV
# PHOTOS (e2e/grid-photos.py's) go where the package's config looks, /var/lib/photokiosk/photos,
# as a frame owner copies theirs: enough to scroll, whatever samples the package bundles.
set -euo pipefail
KROOT=$1 OUT=$2 DEB=$3 UITOUCH=$4 DRIVER=$5 PHOTOS=$6 GRID_ENV=$7
ROOT=$(cd "$(dirname "$0")/.." && pwd)
. "$ROOT/scripts/lib/debian-chroot.sh"
. "$ROOT/e2e/guest-setup.sh"
R=$(dirname "$OUT")/unit-root
trap 'chroot_release "$R"' EXIT
chroot_create "$R"
cp "$DEB" "$R/tmp/photokiosk.deb"
# udev (device nodes, module autoload, libinput's device list) and dbus, as on a real frame;
# curl for the driver's remote API requests. Without the package's Recommends (rclone, GStreamer's
# plugins): this root becomes the guest's initramfs, unpacked into its RAM, and with them (426 MB
# unpacked, 199 MB packed) the 1 GB guest failed to unpack it ("Initramfs unpacking failed: write
# error"); the stage tests the kiosk's own unit, which needs neither.
chroot_apt_install "$R" --no-install-recommends /tmp/photokiosk.deb udev kmod dbus curl >"$(dirname "$OUT")/unit-apt.log" 2>&1 \
  || { tail -n 20 "$(dirname "$OUT")/unit-apt.log"; exit 1; }
chroot_release "$R"

# What a frame builder edits: DRM and libinput only (no fallback to a headless screen).
write_kiosk_config "$R" <<'TOML'
[slideshow]
idle_timeout = 3600   # the grid stays while a slow guest loads thumbnails
TOML

# The kernel modules the GPU and uinput need, loaded by udev (modalias) and modules-load.d.
KVER=$(ls "$KROOT/lib/modules")
for m in virtio_pci bochs virtio-gpu uinput evdev; do
  modprobe -d "$KROOT" -S "$KVER" --show-depends $m | awk '$1=="insmod"{print $2}'
done | sort -u | while read -r ko; do
  rel=${ko#$KROOT/lib/modules/$KVER/}
  mkdir -p "$R/lib/modules/$KVER/$(dirname "$rel")"; cp "$ko" "$R/lib/modules/$KVER/$rel"
done
cp "$KROOT/lib/modules/$KVER"/modules.{order,builtin,builtin.modinfo} "$R/lib/modules/$KVER/" 2>/dev/null || true
depmod -b "$R" "$KVER"
printf 'uinput\nevdev\n' > "$R/etc/modules-load.d/photokiosk-e2e.conf"

# The owner's photos, readable by the service (its user comes from the package's sysusers.d).
mkdir -p "$R/var/lib/photokiosk/photos" && cp "$PHOTOS"/*.jpg "$R/var/lib/photokiosk/photos/"
chroot "$R" chown -R photokiosk:photokiosk /var/lib/photokiosk/photos

# The driver on the serial console; the console's login prompt and apt's timers stay off.
mkdir -p "$R/opt/pk"; cp "$UITOUCH" "$DRIVER" "$GRID_ENV" "$R/opt/pk/"
install_driver_unit "$R" "unit stage" unit-driver.sh ttyS0
# A read-only root (issue 33 item 4): readonly-root.sh makes / read-only once the local file
# systems are up, before the kiosk and the driver start; only the state folder (its own tmpfs),
# /run, /tmp and /var/tmp can be written. The journal stays in /run (no /var/log/journal).
cp "$(dirname "$0")/readonly-root.sh" "$R/opt/pk/"
cat > "$R/etc/systemd/system/pk-readonly-root.service" <<'UNIT'
[Unit]
Description=Read-only root for the unit stage
DefaultDependencies=no
After=local-fs.target systemd-tmpfiles-setup.service systemd-journal-flush.service
Before=sysinit.target photokiosk.service pk-e2e.service

[Service]
Type=oneshot
RemainAfterExit=yes
ExecStart=/opt/pk/readonly-root.sh

[Install]
WantedBy=sysinit.target
UNIT
mkdir -p "$R/etc/systemd/system/sysinit.target.wants"
ln -sf /etc/systemd/system/pk-readonly-root.service "$R/etc/systemd/system/sysinit.target.wants/pk-readonly-root.service"
rm -rf "$R/var/log/journal"
# The cache folder as the package made it (the unit's CacheDirectory= cannot fix it on a
# read-only root); the kiosk finds it read-only and keeps its cache in the state folder.
mkdir -p "$R/var/cache/photokiosk" && chroot "$R" chown photokiosk:photokiosk /var/cache/photokiosk
for u in serial-getty@ttyS0.service apt-daily.timer apt-daily-upgrade.timer; do ln -sf /dev/null "$R/etc/systemd/system/$u"; done
echo photokiosk-e2e > "$R/etc/hostname"
ln -sf /lib/systemd/systemd "$R/init"
rm -rf "$R"/usr/share/{doc,locale,info} "$R"/var/lib/apt/lists/* "$R"/var/cache/apt/*.bin
(cd "$R" && find . | cpio -o -H newc --quiet | gzip -1) > "$OUT"
echo "unit initrd $OUT $(du -h "$OUT" | cut -f1) (unpacked $(du -sh "$R" | cut -f1))"
