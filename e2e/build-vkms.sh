#!/bin/bash
# Builds vkms.ko for the pinned e2e kernel: the plane stage needs a DRM card with an overlay plane,
# and neither of QEMU's display devices has one while Debian's kernel does not build vkms
# (CONFIG_DRM_VKMS is not set). So it is built as an out-of-tree module from Debian's own kernel
# source and headers (downloaded .debs, extracted, never installed), with vkms's own Makefile.
# What it links comes from Debian's modules: drm (writeback is in drm.ko in 6.1), drm_kms_helper,
# drm_shmem_helper; modpost writes them into the module's depends=, which run.sh reads.
# Usage: build-vkms.sh CACHE KVER OUT.ko   (OUT.ko written through a temp file + rename)
set -euo pipefail
CACHE=$1 KVER=$2 OUT=$3
SERIES=$(echo "$KVER" | cut -d. -f1-2)   # 6.1
. "$(dirname "$0")/kernel-build-root.sh"
W=$(mktemp -d "$CACHE/vkms-build.XXXX")
trap 'rm -rf "$W"' EXIT
cd "$W"
t0=$(date +%s)
kernel_build_root "$KVER" vkms
mkdir mod
t1=$(date +%s)
tar -xJf root/usr/src/linux-source-$SERIES.tar.xz --wildcards '*/drivers/gpu/drm/vkms/*'
cp linux-source-$SERIES/drivers/gpu/drm/vkms/* mod/
# vkms's Makefile builds vkms.o under CONFIG_DRM_VKMS, which Debian's .config leaves unset.
make -C root/usr/src/linux-headers-$KVER M="$W/mod" CONFIG_DRM_VKMS=m modules >build.log 2>&1 || { tail -20 build.log; exit 1; }
# a symbol no module of this kernel exports would only show at insmod in the guest: stop here
if grep -q 'undefined!' build.log; then grep 'undefined!' build.log; exit 1; fi
echo "build-vkms: depends=$(modinfo -F depends mod/vkms.ko) vermagic=$(modinfo -F vermagic mod/vkms.ko)"
cp mod/vkms.ko "$OUT.tmp.$$" && mv "$OUT.tmp.$$" "$OUT"
echo "build-vkms: $OUT ($(du -h "$OUT" | cut -f1)): download and extract $((t1 - t0)) s, build $(( $(date +%s) - t1 )) s"
