#!/bin/bash
# The arm64 stage's guest: Debian 13 arm64 (debootstrap under qemu-user), with the arm64 package
# installed by `apt-get install ./photokiosk_*_arm64.deb` (a wrong Depends fails here), booted by
# qemu-system-aarch64 from an ext4 disk with systemd as init. Debian's arm64 kernel has virtio_blk
# and ext4 as modules: a small busybox initramfs loads them and switches to the disk.
# The base system (debootstrap + systemd, udev, curl) is cached, and over it the package's
# dependencies (while its Depends line is unchanged); the package goes into a fresh copy of that
# every run.
# Usage: build-arm64-rootfs.sh CACHE KERNEL_ROOT OUTDIR PACKAGE.deb UITOUCH DRIVER BIGPHOTOS SAMPLES CLIP
#   CLIP: the video clip the driver plays after the big photos (in the guest's /opt/pk/clip)
#   writes OUTDIR/arm64-disk.img and OUTDIR/arm64-initrd.gz; prints one summary line at the end.
set -euo pipefail
CACHE=$1 KROOT=$2 OUT=$3 DEB=$4 UITOUCH=$5 DRIVER=$6 BIG=$7 SAMPLES=$8 CLIP=$9
MIRROR=${DEBIAN_MIRROR:-http://deb.debian.org/debian}
INCLUDE=systemd,systemd-sysv,udev,kmod,dbus,curl
KVER=$(ls "$KROOT/lib/modules")
. "$(dirname "$0")/guest-setup.sh"
mkdir -p "$CACHE/apt-archives/partial" "$OUT"

in_root() { local r=$1; shift
  chroot "$r" env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin LANG=C.UTF-8 HOME=/root DEBIAN_FRONTEND=noninteractive "$@"; }
release() { local r=$1 m
  for m in var/cache/apt/archives dev proc; do ! mountpoint -q "$r/$m" || umount "$r/$m" || umount -l "$r/$m"; done; }
mount_root() { local r=$1
  mountpoint -q "$r/proc" || mount -t proc proc "$r/proc"
  mountpoint -q "$r/dev" || mount --bind /dev "$r/dev"
  mountpoint -q "$r/var/cache/apt/archives" || mount --bind "$CACHE/apt-archives" "$r/var/cache/apt/archives"; }

# 1. The base: debootstrap for arm64; its second stage runs through qemu-user (binfmt, F flag).
base=$CACHE/arm64-base
stamp="trixie $INCLUDE $MIRROR"
if [ "$(cat "$base/.photokiosk-base" 2>/dev/null)" != "$stamp" ]; then
  [ ! -d "$base.part" ] || release "$base.part"
  rm -rf "$base" "$base.part"
  debootstrap --arch=arm64 --variant=minbase --include=$INCLUDE --cache-dir="$CACHE/apt-archives" \
    trixie "$base.part" "$MIRROR" >"$OUT/arm64-debootstrap.log" 2>&1 \
    || { tail -n 20 "$OUT/arm64-debootstrap.log"; exit 1; }
  cp /etc/resolv.conf "$base.part/etc/resolv.conf"
  mount_root "$base.part"; trap 'release "$base.part"' EXIT
  in_root "$base.part" apt-get update -q >>"$OUT/arm64-debootstrap.log" 2>&1
  release "$base.part"; trap - EXIT
  echo "$stamp" >"$base.part/.photokiosk-base"
  mv "$base.part" "$base"
fi

# 2. The package's dependencies, cached as a second layer over the base: installed by
#    `apt-get satisfy` from the package's own Depends line (a name Debian 13 arm64 lacks fails
#    here), kept while that line is unchanged. Unpacking them through qemu-user took minutes.
#    rclone too (a Recommends): the guest measures the photo sources' sync unit (issue 34).
#    GStreamer's plugins for an H.264 clip and libyuv (Recommends and Suggests): the guest plays
#    a 1080p clip (issue 35), and the package, installed after them, prepares their registry.
deps=$CACHE/arm64-deps
depends="$(dpkg-deb -f "$DEB" Depends), rclone, gstreamer1.0-plugins-base, gstreamer1.0-plugins-good, gstreamer1.0-libav, libyuv0"
stamp="$(cat "$base/.photokiosk-base") | $depends"
if [ "$(cat "$deps/.photokiosk-deps" 2>/dev/null)" != "$stamp" ]; then
  [ ! -d "$deps.part" ] || release "$deps.part"
  rm -rf "$deps" "$deps.part" && cp -a "$base" "$deps.part"
  mount_root "$deps.part"; trap 'release "$deps.part"' EXIT
  satisfy() { in_root "$deps.part" apt-get satisfy -y -q --no-install-recommends "$depends"; }
  satisfy >"$OUT/arm64-deps.log" 2>&1 \
    || { in_root "$deps.part" apt-get update -q >>"$OUT/arm64-deps.log" 2>&1 && satisfy >>"$OUT/arm64-deps.log" 2>&1; } \
    || { tail -n 20 "$OUT/arm64-deps.log"; exit 1; }
  release "$deps.part"; trap - EXIT
  echo "$stamp" >"$deps.part/.photokiosk-deps"
  mv "$deps.part" "$deps"
fi

# 3. A fresh copy with the package installed by `apt-get install ./photokiosk_*_arm64.deb`: apt
#    checks its Depends against Debian 13 arm64 again (a wrong one fails here).
R=$OUT/arm64-root
[ ! -d "$R" ] || release "$R"
rm -rf "$R" && cp -a "$deps" "$R"
trap 'release "$R"' EXIT
mount_root "$R"
cp "$DEB" "$R/tmp/$(basename "$DEB")"
install_package() { in_root "$R" apt-get install -y -q --no-install-recommends \
  -o Dpkg::Options::=--force-confdef -o Dpkg::Options::=--force-confold "/tmp/$(basename "$DEB")"; }
install_package >"$OUT/arm64-apt.log" 2>&1 \
  || { in_root "$R" apt-get update -q >>"$OUT/arm64-apt.log" 2>&1 && install_package >>"$OUT/arm64-apt.log" 2>&1; } \
  || { tail -n 20 "$OUT/arm64-apt.log"; exit 1; }
in_root "$R" dpkg-query -W photokiosk
grep -h "GStreamer" "$OUT/arm64-apt.log" || echo "the postinst said nothing about GStreamer's registry"
release "$R"; trap - EXIT

# 4. The test's configuration, through the config file as a frame builder would edit it: DRM and
#    libinput only, the remote page on (loopback, a test token). The package's defaults stay.
write_kiosk_config "$R" <<'TOML'
[remote]
listen = "127.0.0.1:8080"
token = "arm64-e2e-token-0123456789abcdef"
reserve_mb = 1
TOML
# The photos the grid shows: the samples, as a frame's photo folder (the reference screen is
# rendered from the same files on the host).
mkdir -p "$R/var/lib/photokiosk/photos" && cp "$SAMPLES"/*.jpg "$R/var/lib/photokiosk/photos/"
uid=$(awk -F: '$1=="photokiosk"{print $3}' "$R/etc/passwd") gid=$(awk -F: '$1=="photokiosk"{print $3}' "$R/etc/group")
if [ -n "$uid" ]; then chown -R "$uid:$gid" "$R/var/lib/photokiosk/photos"; fi

# 5. Kernel modules: the GPU, uinput and evdev (udev loads them), from Debian's arm64 kernel.
copy_modules() { local root=$1; shift
  for m in "$@"; do modprobe -d "$KROOT" -S "$KVER" --show-depends $m | awk '$1=="insmod"{print $2}'; done \
    | awk '!seen[$0]++' | while read -r ko; do
      rel=${ko#$KROOT/lib/modules/$KVER/}
      mkdir -p "$root/lib/modules/$KVER/$(dirname "$rel")"; cp "$ko" "$root/lib/modules/$KVER/$rel"; echo "$rel"
    done; }
copy_modules "$R" virtio-gpu uinput evdev >/dev/null
cp "$KROOT/lib/modules/$KVER"/modules.{order,builtin,builtin.modinfo} "$R/lib/modules/$KVER/" 2>/dev/null || true
depmod -b "$R" "$KVER"
printf 'uinput\nevdev\n' > "$R/etc/modules-load.d/photokiosk-e2e.conf"

# 6. The driver on the serial console (PL011: ttyAMA0); login prompt and apt's timers off.
mkdir -p "$R/opt/pk/clip"; cp "$UITOUCH" "$DRIVER" "$R/opt/pk/"; cp -r "$BIG" "$R/opt/pk/bigphotos"; cp "$CLIP" "$R/opt/pk/clip/"
install_driver_unit "$R" "arm64 stage" arm64-driver.sh ttyAMA0
for u in serial-getty@ttyAMA0.service getty@tty1.service apt-daily.timer apt-daily-upgrade.timer \
         systemd-timesyncd.service e2scrub_reap.service; do ln -sf /dev/null "$R/etc/systemd/system/$u"; done
echo photokiosk-arm64 > "$R/etc/hostname"
echo '/dev/vda / ext4 rw,noatime 0 1' > "$R/etc/fstab"
rm -rf "$R"/usr/share/{doc,locale,info,man} "$R"/var/lib/apt/lists/* "$R"/var/cache/apt/*.bin "$R/tmp"/*.deb

# 7. The disk (ext4, as on an SD card) and the initramfs that mounts it.
size=$(( $(du -sm "$R" | cut -f1) + 256 ))
rm -f "$OUT/arm64-disk.img"
mke2fs -q -F -t ext4 -L pk-root -d "$R" "$OUT/arm64-disk.img" ${size}M
I=$OUT/arm64-initrd
rm -rf "$I" && mkdir -p "$I"/{bin,dev,proc,sys,newroot}
dpkg-deb --fsys-tarfile "$CACHE"/busybox-static_*_arm64.deb | tar -x -C "$I" ./usr/bin/busybox
mv "$I/usr/bin/busybox" "$I/bin/busybox"; rm -rf "$I/usr"
# busybox's insmod hands the kernel the file as it is: the modules go in uncompressed
copy_modules "$I" virtio_blk ext4 | while read -r rel; do
  case $rel in *.xz) xz -d "$I/lib/modules/$KVER/$rel"; echo "${rel%.xz}" ;; *) echo "$rel" ;; esac
done > "$I/modules.list"
cat > "$I/init" <<'INIT'
#!/bin/busybox sh
/bin/busybox mount -t proc proc /proc
/bin/busybox mount -t devtmpfs dev /dev
while read -r m; do /bin/busybox insmod /lib/modules/*/"$m" 2>/dev/null; done < /modules.list
i=0; while [ ! -b /dev/vda ] && [ $i -lt 100 ]; do /bin/busybox sleep 0.1; i=$((i+1)); done
/bin/busybox mount -t ext4 -o rw,noatime /dev/vda /newroot || { echo "initrd: cannot mount /dev/vda"; /bin/busybox sh; }
/bin/busybox umount /proc
/bin/busybox mount --move /dev /newroot/dev
exec /bin/busybox switch_root /newroot /lib/systemd/systemd
INIT
chmod +x "$I/init"
(cd "$I" && find . | cpio -o -H newc --quiet | gzip -1) > "$OUT/arm64-initrd.gz"
echo "arm64 disk $OUT/arm64-disk.img ${size} MB, initrd $(du -h "$OUT/arm64-initrd.gz" | cut -f1); installed by apt: Depends: $(dpkg-deb -f "$DEB" Depends)"
