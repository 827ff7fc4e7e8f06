# Sourced by the out-of-tree module builds (build-gpio-sim.sh, build-vkms.sh): Debian's kernel
# source and headers for the pinned kernel, downloaded as .debs and extracted into $PWD/root
# (never installed), with the headers' Makefile pointed at the extracted common headers.
# kernel_build_root KVER NAME   (NAME: the module's, for messages)
kernel_build_root() {
  local kver=$1 name=$2 abi=${1%-amd64} series
  series=$(echo "$kver" | cut -d. -f1-2)
  for p in linux-headers-$kver linux-headers-$abi-common linux-kbuild-$series linux-source-$series; do
    apt-get download "$p" >/dev/null 2>&1 || { ${SUDO:-} apt-get update >/dev/null 2>&1 && apt-get download "$p" >/dev/null 2>&1; } \
      || { echo "build-$name: cannot download $p"; return 1; }
  done
  mkdir -p root
  for d in *.deb; do dpkg-deb -x "$d" root; done
  # The headers' Makefile includes the common headers by their installed path: point it here.
  sed -i "s|/usr/src/linux-headers-$abi-common|$PWD/root/usr/src/linux-headers-$abi-common|g" \
    root/usr/src/linux-headers-$kver/Makefile
}
