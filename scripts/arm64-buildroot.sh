#!/usr/bin/env bash
# The arm64 (Raspberry Pi OS 64-bit / Debian 13) cross build root for `make deb-arm64`: a Debian 13
# (trixie) amd64 system made by debootstrap, with Debian's own Swift (swiftlang 6.0.3) as the
# compiler, the project's -dev packages as :arm64 as the target's libraries, the unpacked
# swiftlang:arm64 / libswiftlang:arm64 as the Swift SDK's resources (modules, static stdlib) and
# a generated Swift SDK bundle. Cached outside the work tree and rebuilt when it is missing or when
# what it is made of (the release, the SDK, the dependency patches below) changes; a changed
# package list is installed into it in place.
#   scripts/arm64-buildroot.sh            make it if needed; prints its path on the last line
#   scripts/arm64-buildroot.sh --mount R  only mount /proc, /dev and the package copies into R
#   scripts/arm64-buildroot.sh --release R
# Cache: ${PHOTOKIOSK_BUILDROOT_CACHE:-~/.cache/photokiosk-arm64} (root/, apt-archives/ kept
# between rebuilds so a rebuild downloads nothing).
#
# Why 6.0.3 (trixie) and not 6.2.3 (sid), measured with apt-cache in this root (docs/raspberry-pi.md):
# sid's swiftlang 6.2.3-1+b1 Depends on libc6 (>= 2.42) and libpython3.14, so its build root
# has sid's libc6 2.43; Multi-Arch: same ties libc6:arm64 to the same version, and the program
# would need a glibc newer than trixie's 2.41. Trixie's 6.0.3 needs three small things instead:
#  - the dependency manifests say tools 6.1 (swift-system 1.8.1) and 6.2 (swift-log 1.16.2) and the
#    offline package copies hold only those versions: copies patched here (patch_dependencies),
#    never committed, pointed at by git's insteadOf inside this root;
#  - our Package.swift says 6.1: the build copy says 6.0 (scripts/build-deb-arm64.sh);
#  - a construct that crashed 6.0.3 ("SIL memory lifetime failure") was rewritten in our code.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
CACHE=${PHOTOKIOSK_BUILDROOT_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/photokiosk-arm64}
MIRROR=${DEBIAN_MIRROR:-http://deb.debian.org/debian}
SUITE=trixie
PACKAGES_DIR=/opt/swift-packages     # the offline copies git's insteadOf points github.com at

# What the root is made of. Any change here (or in the SDK text or the patches) rebuilds it.
HOST_PACKAGES=(swiftlang build-essential pkg-config git lld binutils-aarch64-linux-gnu debhelper dpkg-dev
               fonts-dejavu-core lintian file ca-certificates)
TARGET_PACKAGES=(libc6-dev libgcc-14-dev libstdc++-14-dev libdrm-dev libinput-dev libudev-dev
                 libjpeg-dev libpixman-1-dev libpng-dev libfreetype-dev libheif-dev libwebp-dev
                 libmosquitto-dev libmicrohttpd-dev libqrencode-dev)
SDK_PACKAGES=(swiftlang libswiftlang)   # :arm64, unpacked (not installed) as the SDK's resources
SDK_DIR=/opt/swift-arm64                # in the root: the unpacked SDK packages
SDKS=/opt/swift-sdks                    # in the root: the Swift SDK bundle
TRIPLE=aarch64-unknown-linux-gnu

root="$CACHE/root"

mount_root() {
  local r=$1
  mountpoint -q "$r/proc" || mount -t proc proc "$r/proc"
  mountpoint -q "$r/dev" || mount --bind /dev "$r/dev"
  mkdir -p "$r$PACKAGES_DIR" "$r/var/cache/apt/archives" "$CACHE/apt-archives/partial"
  if [ -d "$PACKAGES_DIR" ] && ! mountpoint -q "$r$PACKAGES_DIR"; then
    mount --bind "$PACKAGES_DIR" "$r$PACKAGES_DIR" && mount -o remount,bind,ro "$r$PACKAGES_DIR"
  fi
  mountpoint -q "$r/var/cache/apt/archives" || mount --bind "$CACHE/apt-archives" "$r/var/cache/apt/archives"
}
release_root() {
  local r=$1 m
  for m in var/cache/apt/archives ${PACKAGES_DIR#/} dev proc; do
    ! mountpoint -q "$r/$m" || umount "$r/$m" || umount -l "$r/$m"
  done
}
in_root() {
  local r=$1; shift
  chroot "$r" env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin LANG=C.UTF-8 HOME=/root \
    DEBIAN_FRONTEND=noninteractive "$@"
}
case "${1:-}" in
  --mount) mount_root "$2"; exit 0 ;;
  --release) release_root "$2"; exit 0 ;;
esac

# The Swift SDK bundle (SwiftPM's artifactbundle): the target's libraries are the root's own
# :arm64 packages (sdkRootPath "/"), the Swift modules and static stdlib the unpacked swiftlang:arm64.
sdk_files() {
  cat <<JSON
=info.json
{ "schemaVersion": "1.0", "artifacts": { "debian-trixie-arm64": { "type": "swiftSDK", "version": "1",
  "variants": [ { "path": "debian-trixie-arm64" } ] } } }
=debian-trixie-arm64/swift-sdk.json
{ "schemaVersion": "4.0", "targetTriples": { "$TRIPLE": {
  "sdkRootPath": "/",
  "swiftResourcesPath": "$SDK_DIR/usr/libexec/swift/lib/swift",
  "swiftStaticResourcesPath": "$SDK_DIR/usr/libexec/swift/lib/swift_static",
  "toolsetPaths": ["toolset.json"] } } }
=debian-trixie-arm64/toolset.json
{ "schemaVersion": "1.0",
  "swiftCompiler": { "extraCLIOptions": ["-use-ld=lld"] },
  "cCompiler": { "extraCLIOptions": ["-fuse-ld=lld"] },
  "cxxCompiler": { "extraCLIOptions": ["-fuse-ld=lld"] } }
JSON
}

# swift-log 1.16.2 and swift-system 1.8.1 for Swift 6.0: tools version 6.0, no package traits
# (swift-log's are all off by default), no nonisolated(nonsending), no trailing comma before ")"
# (6.1 syntax), no unsafe flags (6.0 refuses them in a dependency; they are extra checks only),
# no `_runtime(_multithreaded)` condition (6.2's; on Linux it is true: `!os(WASI)`). The tags keep their names, so SwiftPM resolves the same versions as on amd64.
patch_dependencies() {
  local r=$1 repo tag dir
  for repo in apple/swift-log:1.16.2 apple/swift-system:1.8.1; do
    tag=${repo#*:} repo=${repo%:*} dir="$r/opt/swift-packages-arm64/$repo"
    rm -rf "$dir" && git -c advice.detachedHead=false clone -q --branch "$tag" "https://github.com/$repo" "$dir"   # through the host's insteadOf
    sed -i '1s/swift-tools-version: *6\.[0-9]*/swift-tools-version:6.0/' "$dir/Package.swift"
    perl -0pi -e 's/\n    traits: \[.*?\n    \],//s; s/.*(NonisolatedNonsendingByDefault|unsafeFlags).*\n//g' "$dir/Package.swift"
    find "$dir/Sources" -name '*.swift' -print0 | xargs -0 perl -0pi -e \
      's/nonisolated\(nonsending\) *//g; s/,(\s*\))/$1/g; s/_runtime\(_multithreaded\)/(!os(WASI))/g'
    GIT_AUTHOR_DATE=2025-01-01T00:00:00Z GIT_COMMITTER_DATE=2025-01-01T00:00:00Z \
      git -C "$dir" -c user.name=arm64-buildroot -c user.email=build@localhost commit -qam "Swift 6.0 (arm64-buildroot.sh)"
    git -C "$dir" tag -f "$tag" >/dev/null
    echo "[url \"/opt/swift-packages-arm64/$repo\"]" >>"$r/root/.gitconfig"
    echo "	insteadOf = https://github.com/$repo" >>"$r/root/.gitconfig"
  done
}

# Two stamps: what a rebuild from scratch is needed for (the release, the SDK, the bundle's
# text, the patches) and the package lists. A package added to a list is installed into the
# cached root in place (a minute), not a reason to debootstrap again (half an hour).
base_stamp=$( { printf '%s\n' "$SUITE" "${SDK_PACKAGES[@]}"; sdk_files; declare -f patch_dependencies; } | sha256sum | cut -c1-16)
package_list="${HOST_PACKAGES[*]} $(printf '%s:arm64 ' "${TARGET_PACKAGES[@]}")"
install_packages() {
  in_root "$1" apt-get install -y -q --no-install-recommends $package_list >"$CACHE/apt.log" 2>&1 \
    || { in_root "$1" apt-get update -q >&2 && in_root "$1" apt-get install -y -q --no-install-recommends $package_list >"$CACHE/apt.log" 2>&1; } \
    || { tail -n 20 "$CACHE/apt.log" >&2; return 1; }
}
if [ "$(cat "$root/.photokiosk-buildroot" 2>/dev/null)" = "$base_stamp" ]; then
  if [ "$(cat "$root/.photokiosk-packages" 2>/dev/null)" != "$package_list" ]; then
    echo "arm64-buildroot: bringing the package list of $root up to date" >&2
    trap 'release_root "$root"' EXIT
    mount_root "$root"
    install_packages "$root"
    release_root "$root"; trap - EXIT
    echo "$package_list" >"$root/.photokiosk-packages"
  fi
  echo "$root"; exit 0
fi

echo "arm64-buildroot: making $root (Debian $SUITE, base $base_stamp)" >&2
for tool in debootstrap eatmydata; do
  command -v $tool >/dev/null || DEBIAN_FRONTEND=noninteractive apt-get install -y -q $tool >&2 \
    || { apt-get update -q >&2 && DEBIAN_FRONTEND=noninteractive apt-get install -y -q $tool >&2; }
done
mkdir -p "$CACHE"
part="$root.part"
[ ! -d "$part" ] || release_root "$part"
[ ! -d "$root" ] || release_root "$root"
rm -rf "$part" "$root"
mkdir -p "$CACHE/apt-archives/partial"
trap 'release_root "$part"' EXIT
# debootstrap keeps its .debs in the same download cache as apt (a rebuild downloads nothing).
# Without fsync (eatmydata, dpkg's unsafe-io): the root is a cache, made in "$part" and renamed only
# when complete, so a crash leaves nothing that is used; one sync at the end makes it durable.
# dpkg's fsync per file is most of the time of unpacking 6 GB of packages.
eatmydata debootstrap --variant=minbase --cache-dir="$CACHE/apt-archives" "$SUITE" "$part" "$MIRROR" \
  >"$CACHE/debootstrap.log" 2>&1 || { tail -n 20 "$CACHE/debootstrap.log" >&2; exit 1; }
echo force-unsafe-io >"$part/etc/dpkg/dpkg.cfg.d/photokiosk-unsafe-io"
mount_root "$part"
cp /etc/resolv.conf "$part/etc/resolv.conf"
in_root "$part" dpkg --add-architecture arm64
in_root "$part" apt-get update -q >&2
install_packages "$part"
in_root "$part" sh -c "cd /var/cache/apt/archives && apt-get download $(printf '%s:arm64 ' "${SDK_PACKAGES[@]}")" >&2
for p in "${SDK_PACKAGES[@]}"; do
  deb=$(ls "$CACHE/apt-archives/${p}_"*_arm64.deb | tail -n 1)
  dpkg-deb -x "$deb" "$part$SDK_DIR"
done
sdk_files | awk -v dir="$part$SDKS/$TRIPLE.artifactbundle" '
  /^=/ { file = dir "/" substr($0, 2); system("mkdir -p \"$(dirname \"" file "\")\""); next }
  { print > file }'
in_root "$part" git config --global --add safe.directory '*'
# The host's offline package copies (git's system-wide insteadOf), the same inside.
git config --system --get-regexp '^url\..*\.insteadof$' 2>/dev/null | while read -r key value; do
  in_root "$part" git config --global --add "$key" "$value"; done
patch_dependencies "$part" >&2
release_root "$part"; trap - EXIT
sync -f "$part"
echo "$base_stamp" >"$part/.photokiosk-buildroot"
echo "$package_list" >"$part/.photokiosk-packages"
mv "$part" "$root"
echo "$root"
