#!/usr/bin/env bash
# `make deb`: the Debian package, built by dpkg-buildpackage and debhelper (debian/) from the
# release build, in an exported copy of the packaging files (.build/deb/photokiosk-VERSION/), so
# the checkout and its parent folder get nothing but the result:
#     .build/photokiosk_VERSION_ARCH.deb          (the path is printed on the last line)
# Usage: scripts/build-deb.sh [--binary PATH] [--out DIR] [--version V]
#   --binary PATH  package this program instead of building the release (a prebuilt one)
#   --out DIR      where the .deb goes (default .build)
#   --version V    package as version V (the install/upgrade test builds an older one);
#                  default scripts/version.sh: debian/changelog's, plus the commit between releases
# A version other than the changelog's gets its own changelog entry in the export, so the
# package, its changelog and `photokiosk --version` agree.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
SWIFT="${SWIFT:-swift}"
binary="" out="$here/.build" version=""
while [ $# -gt 0 ]; do
    case "$1" in
        --binary) binary="${2:?--binary needs a path}"; shift 2 ;;
        --out) out="${2:?--out needs a folder}"; shift 2 ;;
        --version) version="${2:?--version needs a version}"; shift 2 ;;
        *) echo "build-deb.sh: unknown option $1" >&2; exit 64 ;;
    esac
done
"$here/scripts/install-deps.sh" debhelper dpkg-dev >&2
version="${version:-$("$here/scripts/version.sh")}"

cd "$here"
if [ -z "$binary" ]; then
    "$SWIFT" build -c release --static-swift-stdlib --product photokiosk >&2
    binary="$("$SWIFT" build -c release --static-swift-stdlib --show-bin-path)/photokiosk"
fi
[ -x "$binary" ] || { echo "build-deb.sh: $binary is not an executable program" >&2; exit 66; }
binary="$(cd "$(dirname "$binary")" && pwd)/$(basename "$binary")"
# swift-argument-parser's man page generator, from the checkout SwiftPM already made.
"$SWIFT" build --package-path .build/checkouts/swift-argument-parser --scratch-path .build/tools \
    --product generate-manual >&2
generate_manual="$here/.build/tools/debug/generate-manual"

work="$out/deb"
src="$work/photokiosk-$version"
rm -rf "$work" && mkdir -p "$src"
cp -a debian deploy assets "$src/"
mkdir -p "$src/scripts" && cp -a scripts/install.sh "$src/scripts/"
changelog_version="$(sed -n '1s/^[a-z0-9.+-]* (\([^)]*\)).*/\1/p' debian/changelog)"
if [ "$version" != "$changelog_version" ]; then
    maintainer="$(sed -n 's/^ -- \(.*>\)  .*/\1/p' debian/changelog | head -n 1)"
    commit="$(git rev-parse --short=7 HEAD 2>/dev/null || echo "an unknown commit")"
    { printf 'photokiosk (%s) unstable; urgency=medium\n\n' "$version"
      printf '  * Build of %s between releases (scripts/build-deb.sh).\n\n' "$commit"
      printf ' -- %s  %s\n\n' "$maintainer" "$(date -R)"
      cat debian/changelog; } > "$src/debian/changelog"
fi

other_version=""; [ "$version" = "$("$here/scripts/version.sh")" ] || other_version=1
(cd "$src" && PHOTOKIOSK_BINARY="$binary" PHOTOKIOSK_GENERATE_MANUAL="$generate_manual" \
    PHOTOKIOSK_OTHER_VERSION="$other_version" \
    dpkg-buildpackage --build=binary --no-sign >"$work/build.log" 2>&1) \
    || { tail -n 40 "$work/build.log" >&2; echo "build-deb.sh: dpkg-buildpackage failed ($work/build.log)" >&2; exit 1; }
arch="$(dpkg-architecture -qDEB_HOST_ARCH)"
deb="$out/photokiosk_${version}_${arch}.deb"
cp "$work/photokiosk_${version}_${arch}.deb" "$deb"
echo "$deb"
