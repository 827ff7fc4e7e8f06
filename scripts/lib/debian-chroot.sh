# A fresh Debian 12 chroot from a cached debootstrap, for the package test and the e2e unit stage.
# Source it, then:
#   chroot_create DIR   a copy of the cached base (made once with debootstrap), /proc mounted and
#                       apt's download folder shared with later runs; returns 1 with a message
#   chroot_run DIR CMD  CMD inside, with a clean environment
#   chroot_apt_install DIR ARGS   apt-get install that keeps edited conffiles
#   chroot_release DIR  unmounts what chroot_create mounted (call it from an EXIT trap)
CHROOT_CACHE=${PHOTOKIOSK_E2E_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/photokiosk-e2e}
CHROOT_MIRROR=${DEBIAN_MIRROR:-http://deb.debian.org/debian}

chroot_release() {
  umount "$1/var/cache/apt/archives" "$1/proc" 2>/dev/null || true
  for m in proc var/cache/apt/archives; do
    ! mountpoint -q "$1/$m" || { echo "debian-chroot: $1/$m is still mounted" >&2; return 1; }
  done
}

chroot_create() {
  local dir=$1 base=$CHROOT_CACHE/debootstrap-bookworm
  if [ ! -x "$base/usr/bin/apt-get" ]; then
    mkdir -p "$CHROOT_CACHE"; rm -rf "$base.part"
    debootstrap --variant=minbase --include=systemd,man-db,bash-completion bookworm "$base.part" \
        "$CHROOT_MIRROR" >"$CHROOT_CACHE/debootstrap.log" 2>&1 && mv "$base.part" "$base" \
      || { echo "debian-chroot: debootstrap failed ($CHROOT_CACHE/debootstrap.log)" >&2; return 1; }
  fi
  [ ! -e "$dir" ] || chroot_release "$dir" || return 1
  rm -rf "$dir" && cp -a "$base" "$dir" || { echo "debian-chroot: cannot copy the base to $dir" >&2; return 1; }
  mkdir -p "$CHROOT_CACHE/debootstrap-apt-archives/partial"
  mount -t proc proc "$dir/proc" && mount --bind "$CHROOT_CACHE/debootstrap-apt-archives" "$dir/var/cache/apt/archives" \
    || { echo "debian-chroot: cannot mount /proc or the apt cache in $dir" >&2; return 1; }
  cp /etc/resolv.conf "$dir/etc/resolv.conf"
  chroot_run "$dir" apt-get update -q >/dev/null 2>&1 || { echo "debian-chroot: apt-get update failed in $dir" >&2; return 1; }
}

chroot_run() {
  local dir=$1; shift
  chroot "$dir" env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin LANG=C.UTF-8 HOME=/root DEBIAN_FRONTEND=noninteractive "$@"
}

chroot_apt_install() {
  local dir=$1; shift
  chroot_run "$dir" apt-get install -y -q -o Dpkg::Options::=--force-confdef -o Dpkg::Options::=--force-confold "$@"
}
