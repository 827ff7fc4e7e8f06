#!/bin/bash
# Build the guest initramfs: busybox, the kernel modules for bochs/virtio-gpu/uinput, the test
# programs with the shared libraries ldd reports, libinput's data files and a font.
# Usage: build-initrd.sh KERNEL_ROOT OUT.cpio.gz FILE...   (each FILE goes to /opt/pk/)
set -euo pipefail
KROOT=$1 OUT=$2; shift 2
KVER=$(ls $KROOT/lib/modules)
R=$(mktemp -d ${TMPDIR:-/tmp}/pk-initrd.XXXX)
trap 'rm -rf "$R"' EXIT
mkdir -p $R/{bin,sbin,proc,sys,dev,tmp,run,etc,root,usr/bin,usr/share/fonts,lib/modules/$KVER,opt/pk}
cp /bin/busybox $R/bin/busybox
for a in $($R/bin/busybox --list); do [ -e $R/bin/$a ] || ln -s busybox $R/bin/$a; done

# kernel modules in dependency order (modprobe --show-depends over the extracted package)
: > $R/lib/modules/$KVER/load-order
# BASE_MODULES: a stage that needs no touch input leaves out uinput and evdev (powercut)
for m in ${BASE_MODULES:-virtio_pci bochs virtio-gpu uinput evdev} ${EXTRA_MODULES:-}; do   # EXTRA_MODULES: a stage's own (smallboard: its disk)
  modprobe -d $KROOT -S $KVER --show-depends $m | awk '$1=="insmod"{print $2}'
done | awk '!seen[$0]++' | while read ko; do
  rel=${ko#$KROOT/lib/modules/$KVER/}
  mkdir -p $R/lib/modules/$KVER/$(dirname $rel); cp $ko $R/lib/modules/$KVER/$rel
  echo "$rel" >> $R/lib/modules/$KVER/load-order
done
# LATER_MODULES: copied with their dependencies but not loaded at boot, because they would change
# every stage's guest (vivid adds video and CEC devices): the stage that needs one loads it with
# its own parameters, in the order /lib/modules/KVER/MODULE.order lists.
for m in ${LATER_MODULES:-}; do
  : > $R/lib/modules/$KVER/$m.order
  modprobe -d $KROOT -S $KVER --show-depends $m | awk '$1=="insmod"{print $2}' | while read ko; do
    rel=${ko#$KROOT/lib/modules/$KVER/}
    mkdir -p $R/lib/modules/$KVER/$(dirname $rel); [ -e $R/lib/modules/$KVER/$rel ] || cp $ko $R/lib/modules/$KVER/$rel
    echo "$rel" >> $R/lib/modules/$KVER/$m.order
  done
done

copy_with_libs() {   # an executable plus its shared libraries, at the same absolute paths
  local src=$1 dst=$2
  mkdir -p $R$(dirname $dst); cp -L $src $R$dst
  { ldd $src 2>/dev/null || true; } | awk '/=> \//{print $3} /^\t\/[^ ]+ \(/{print $1}' | while read lib; do
    mkdir -p $R$(dirname $lib); [ -e $R$lib ] || cp -L $lib $R$lib
  done
}
for f in "$@"; do
  if [ -d "$f" ]; then cp -r "$f" $R/opt/pk/; else copy_with_libs "$f" /opt/pk/$(basename "$f"); fi
done
cp -r /usr/share/libinput $R/usr/share/
mkdir -p $R/usr/share/fonts/truetype/dejavu
cp /usr/share/fonts/truetype/dejavu/DejaVuSans*.ttf $R/usr/share/fonts/truetype/dejavu/ 2>/dev/null || true
echo 'root:x:0:0:root:/root:/bin/sh' > $R/etc/passwd
printf 'root:x:0:\nvideo:x:44:\ninput:x:105:\nrender:x:106:\n' > $R/etc/group
if [ -n "${EXTRA_TREE:-}" ]; then cp -a "$EXTRA_TREE"/. $R/; fi   # systemd-udevd (see run.sh)
cp ${INIT:-$(dirname "$0")/init} $R/init; chmod +x $R/init   # INIT: a stage's own /init (powercut)
# GZIP_CMD=cat: an uncompressed archive, which a TCG guest unpacks faster (powercut boots 30 times)
(cd $R && find . | cpio -o -H newc --quiet | ${GZIP_CMD:-gzip -1}) > $OUT
echo "initrd $OUT $(du -h $OUT | cut -f1) (unpacked $(du -sh $R | cut -f1))"
