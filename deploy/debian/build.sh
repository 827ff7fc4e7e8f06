#!/usr/bin/env bash
# Builds the Debian package from a staged install: `make deb`.
# Usage: deploy/debian/build.sh [--binary PATH] [--out DIR]
#   --binary PATH  package this program instead of building a release (cross-compiled, CI)
#   --out DIR      where the .deb goes (default .build)
# The version is VERSION from the environment, else from `git describe`, else 0.0.0.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
binary_args=()
out="$here/.build"
while [ $# -gt 0 ]; do
    case "$1" in
        --binary) binary_args=(--binary "${2:?--binary needs a path}"); shift 2 ;;
        --out) out="${2:?--out needs a folder}"; shift 2 ;;
        *) echo "build.sh: unknown option $1" >&2; exit 64 ;;
    esac
done
version="${VERSION:-$(git -C "$here" describe --tags --always 2>/dev/null | sed 's/^v//; s/-/+/g' || true)}"
case "$version" in [0-9]*.[0-9]*) ;; *) version="0.0.0+git${version:-unknown}" ;; esac
arch="${ARCH:-$(dpkg --print-architecture)}"
stage="$out/deb-root"
rm -rf "$stage"
mkdir -p "$stage/DEBIAN"
# Debian's layout: /usr/bin, units and udev rules under /lib (the package manager owns them).
DESTDIR="$stage" PREFIX=/usr UNITDIR=/lib/systemd/system UDEVDIR=/lib/udev/rules.d \
    "$here/scripts/install.sh" "${binary_args[@]}" >/dev/null
size="$(du -sk --exclude=DEBIAN "$stage" | cut -f1)"
sed -e "s/@VERSION@/$version/" -e "s/@ARCH@/$arch/" -e "s/@SIZE@/$size/" \
    "$here/deploy/debian/control.in" > "$stage/DEBIAN/control"
install -m 644 "$here/deploy/debian/conffiles" "$stage/DEBIAN/conffiles"
for script in postinst prerm postrm; do
    install -m 755 "$here/deploy/debian/$script" "$stage/DEBIAN/$script"
done
deb="$out/photokiosk_${version}_${arch}.deb"
dpkg-deb --root-owner-group --build "$stage" "$deb" >/dev/null
echo "$deb"
