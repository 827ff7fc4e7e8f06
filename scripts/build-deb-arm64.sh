#!/usr/bin/env bash
# `make deb-arm64`: the Debian package for Raspberry Pi OS (64-bit) / Debian 13 arm64, built on
# this x86_64 machine with no Swift on the Pi:
#     .build/photokiosk_VERSION_arm64.deb          (the path is printed on the last line)
# 1. the cross build root (scripts/arm64-buildroot.sh: Debian 13 with swiftlang 6.0.3 and the
#    :arm64 libraries; cached in ~/.cache/photokiosk-arm64);
# 2. a copy of the sources in it (Package.swift's tools version lowered to 6.0 there: 6.0.3 reads
#    no 6.1 manifest; the version fixed to this checkout's scripts/version.sh);
# 3. swift build for aarch64, release, Swift runtime linked in (--static-swift-stdlib), debug info
#    stripped (dh_dwz fails on Swift's DWARF 5);
# 4. dpkg-buildpackage -a arm64 with the project's debian/: man page and completions come from the
#    arm64 program run through qemu-user (binfmt), Depends from dpkg-shlibdeps (${shlibs:Depends});
# 5. lintian, no error and no warning (as scripts/package-test.sh asks of the amd64 package).
# Usage: scripts/build-deb-arm64.sh [--out DIR]
# Measured (2 cores shared with other builds): BENCHMARKS.md "arm64".
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
out="$here/.build"
while [ $# -gt 0 ]; do
  case "$1" in
    --out) out="${2:?--out needs a folder}"; shift 2 ;;
    *) echo "build-deb-arm64.sh: unknown option $1" >&2; exit 64 ;;
  esac
done
[ "$(id -u)" = 0 ] || exec sudo -E "$0" --out "$out"
mkdir -p "$out"; out="$(cd "$out" && pwd)"

# arm64 programs run here through qemu-user (the man page, the completions, the version check).
if [ ! -e /proc/sys/fs/binfmt_misc/qemu-aarch64 ]; then
  dpkg -s qemu-user-static binfmt-support >/dev/null 2>&1 \
    || DEBIAN_FRONTEND=noninteractive apt-get install -y -q qemu-user-static binfmt-support >&2 \
    || { apt-get update -q >&2 && DEBIAN_FRONTEND=noninteractive apt-get install -y -q qemu-user-static binfmt-support >&2; }
  mountpoint -q /proc/sys/fs/binfmt_misc || mount -t binfmt_misc binfmt_misc /proc/sys/fs/binfmt_misc
  update-binfmts --enable qemu-aarch64 >&2 || true
fi
# F (fix binary): the interpreter is opened now, so it also works inside the build root.
grep -q '^flags: .*F' /proc/sys/fs/binfmt_misc/qemu-aarch64 \
  || { echo "build-deb-arm64.sh: no qemu-aarch64 binfmt handler with the F flag" >&2; exit 69; }
command -v rsync >/dev/null || DEBIAN_FRONTEND=noninteractive apt-get install -y -q rsync >&2

root=$("$here/scripts/arm64-buildroot.sh" | tail -n 1)
version=$("$here/scripts/version.sh")
trap '"$here/scripts/arm64-buildroot.sh" --release "$root"' EXIT
"$here/scripts/arm64-buildroot.sh" --mount "$root"
in_root() {
  chroot "$root" env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin LANG=C.UTF-8 HOME=/root \
    DEBIAN_FRONTEND=noninteractive "$@"
}

# 2. The sources, copied with their times (an unchanged file rebuilds nothing); the two files
#    the copy changes are written only when their text changes.
src=/build/photokiosk
mkdir -p "$root$src"
rsync -a --delete --exclude /.build --exclude /.git --exclude /Package.resolved --exclude /.swiftpm \
  --exclude /Package.swift --exclude /scripts/version.sh "$here/" "$root$src/"
write_if_changed() { local f=$1 text; text=$(cat); [ -f "$f" ] && [ "$(cat "$f")" = "$text" ] || printf '%s\n' "$text" >"$f"; }
sed '1s/swift-tools-version: *6\.[0-9]*/swift-tools-version:6.0/' "$here/Package.swift" | write_if_changed "$root$src/Package.swift"
# No git in the copy: the version is this checkout's, fixed.
sed "s/^version=\$release\$/version='$version'/" "$here/scripts/version.sh" | write_if_changed "$root$src/scripts/version.sh"
chmod +x "$root$src/scripts/version.sh"
# Swift 6.0.3 keeps its build description (and skips the VersionStamp plugin's prebuild command)
# while the manifest is unchanged: a new version must make it plan again.
# (|| true: a fresh build folder has no plugin outputs yet, and find's failure would end the script)
stamp=$(find "$root$src/.build/plugins/outputs" -path '*VersionStamp/Generated/BuildVersion.swift' 2>/dev/null | head -n 1 || true)
if [ -n "$stamp" ] && ! grep -qF "\"$version\"" "$stamp"; then touch "$root$src/Package.swift"; fi

# 3. The program for aarch64 and swift-argument-parser's generate-manual for this machine.
build_env=(PKG_CONFIG_PATH=/usr/lib/aarch64-linux-gnu/pkgconfig)   # SwiftPM adds the SDK's own paths
sdk=(--swift-sdks-path /opt/swift-sdks --swift-sdk aarch64-unknown-linux-gnu)
in_root env "${build_env[@]}" sh -c "cd $src && swift build ${sdk[*]} -c release --static-swift-stdlib --product photokiosk" >&2
bin="$(in_root sh -c "cd $src && swift build ${sdk[*]} -c release --static-swift-stdlib --show-bin-path")/photokiosk"
in_root sh -c "cd $src && swift build --package-path .build/checkouts/swift-argument-parser --scratch-path .build/tools --product generate-manual" >&2
mkdir -p "$root/build/out"
in_root aarch64-linux-gnu-strip --strip-debug -o /build/out/photokiosk "$bin"
# Raspberry Pi OS 13 / Debian 13 have glibc 2.41: nothing newer may be asked for.
newest=$(in_root aarch64-linux-gnu-objdump -T /build/out/photokiosk | grep -o 'GLIBC_[0-9.]*' | sort -uV | tail -n 1)
[ "$(printf '%s\n' "${newest#GLIBC_}" 2.41 | sort -V | tail -n 1)" = 2.41 ] \
  || { echo "build-deb-arm64.sh: the program needs $newest, newer than Debian 13's 2.41" >&2; exit 1; }
echo "build-deb-arm64.sh: aarch64 program $(stat -c %s "$root/build/out/photokiosk") bytes, needs $newest" >&2

# 4. The package, from an export of the packaging files (as scripts/build-deb.sh does).
work=/build/deb
in_root rm -rf $work
in_root mkdir -p $work/photokiosk-$version
in_root sh -c "cd $src && cp -a debian deploy assets $work/photokiosk-$version/ && mkdir -p $work/photokiosk-$version/scripts && cp -a scripts/install.sh $work/photokiosk-$version/scripts/"
changelog_version="$(sed -n '1s/^[a-z0-9.+-]* (\([^)]*\)).*/\1/p' "$here/debian/changelog")"
if [ "$version" != "$changelog_version" ]; then   # between releases: an entry for this build
  maintainer="$(sed -n 's/^ -- \(.*>\)  .*/\1/p' "$here/debian/changelog" | head -n 1)"
  commit="$(git -C "$here" rev-parse --short=7 HEAD 2>/dev/null || echo "an unknown commit")"
  { printf 'photokiosk (%s) unstable; urgency=medium\n\n' "$version"
    printf '  * Build of %s between releases (scripts/build-deb-arm64.sh).\n\n' "$commit"
    printf ' -- %s  %s\n\n' "$maintainer" "$(date -R)"
    cat "$here/debian/changelog"; } > "$root$work/photokiosk-$version/debian/changelog"
fi
in_root sh -c "cd $work/photokiosk-$version && PHOTOKIOSK_BINARY=/build/out/photokiosk \
    PHOTOKIOSK_GENERATE_MANUAL=$src/.build/tools/debug/generate-manual PHOTOKIOSK_UNITDIR=/usr/lib/systemd/system \
    dpkg-buildpackage --build=binary --no-sign -a arm64 >$work/build.log 2>&1" \
  || { tail -n 40 "$root$work/build.log" >&2; echo "build-deb-arm64.sh: dpkg-buildpackage failed ($root$work/build.log)" >&2; exit 1; }
deb="photokiosk_${version}_arm64.deb"

# 5. lintian (trixie's, the target's release): no error, no warning.
in_root lintian --fail-on error,warning "$work/$deb" >&2 \
  || { echo "build-deb-arm64.sh: lintian reports errors or warnings" >&2; exit 1; }
cp "$root$work/$deb" "$out/$deb"
echo "$out/$deb"
