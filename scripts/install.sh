#!/usr/bin/env bash
# Installs PhotoKiosk as a picture frame on Debian 12 or Raspberry Pi OS (bookworm):
#   - the program          $PREFIX/bin/photokiosk     (built: release, Swift runtime linked in)
#   - the sample photos    /usr/share/photokiosk/photos (where the program looks for them)
#   - the place table      /usr/share/photokiosk/places (the overlay's offline place names)
#   - the configuration    /etc/photokiosk/config.toml  (only when absent: edits are kept)
#   - the systemd unit     $UNITDIR/photokiosk.service  (ExecStart points at the program above)
#   - the sources' sync    $PREFIX/lib/photokiosk/photokiosk-sync, photokiosk-sync.service and
#                          .timer (rclone; does nothing until /etc/photokiosk/rclone.conf exists)
#   - udev rules           $UDEVDIR/99-photokiosk.rules (backlight writable by the video group),
#                          and the touch-rotation example beside it (not active)
#   - a `photokiosk` system user in the video, render and input groups, and its cache and
#     state folders /var/cache/photokiosk and /var/lib/photokiosk
#   - GStreamer's plugin registry for video clips (photokiosk prepare-clips), when GStreamer is there
#
# Usage: scripts/install.sh [--binary PATH] [--no-enable] [--no-token]
#   --binary PATH  install this program instead of building one (e.g. a cross-compiled one)
#   --no-enable    do not enable or start the service
#   --no-token     leave the remote token empty in a new config (a package: every frame would
#                  share the one written at build time; its postinst makes one per frame)
# Environment:
#   DESTDIR   stage everything under this folder (packages, tests): no user is created and
#             nothing is enabled; what would be done is printed instead
#   PREFIX    where the program goes (default /usr/local; the Debian package uses /usr)
#   UNITDIR   systemd unit folder (default /etc/systemd/system)
#   UDEVDIR   udev rules folder (default /etc/udev/rules.d; empty: not installed, the Debian
#             package's dh_installudev does it)
#   SWIFT     the swift command (default swift)
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
DESTDIR="${DESTDIR:-}"
PREFIX="${PREFIX:-/usr/local}"
UNITDIR="${UNITDIR:-/etc/systemd/system}"
UDEVDIR="${UDEVDIR-/etc/udev/rules.d}"
SWIFT="${SWIFT:-swift}"
DATADIR=/usr/share/photokiosk     # fixed: ResourceLocator.installedPhotos
CONFDIR=/etc/photokiosk           # fixed: KioskConfig.defaultPath
binary=""
enable=1
token=1

while [ $# -gt 0 ]; do
    case "$1" in
        --binary) binary="${2:?--binary needs a path}"; shift 2 ;;
        --no-enable) enable=0; shift ;;
        --no-token) token=0; shift ;;
        -h|--help) sed -n '2,24p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
        *) echo "install.sh: unknown option $1 (see --help)" >&2; exit 64 ;;
    esac
done

if [ -z "$DESTDIR" ] && [ "$(id -u)" -ne 0 ]; then
    echo "install.sh: run as root (sudo scripts/install.sh), or set DESTDIR to stage the files" >&2
    exit 77
fi

# 1. The program: a release build with the Swift runtime linked statically, so the machine needs
#    no Swift toolchain to run it (only the C libraries listed in the Debian package's Depends).
if [ -z "$binary" ]; then
    echo "Building photokiosk (release, --static-swift-stdlib); this takes a while on a Pi..."
    (cd "$here" && "$SWIFT" build -c release --static-swift-stdlib --product photokiosk)
    binary="$(cd "$here" && "$SWIFT" build -c release --static-swift-stdlib --show-bin-path)/photokiosk"
fi
[ -x "$binary" ] || { echo "install.sh: $binary is not an executable program" >&2; exit 66; }
install -D -m 755 "$binary" "$DESTDIR$PREFIX/bin/photokiosk"
# Symbols are half the file (33 MB -> 17 MB measured on x86_64); a strip that does not know the
# binary's architecture (a cross-compiled program) leaves it as it is.
if command -v strip >/dev/null; then strip "$DESTDIR$PREFIX/bin/photokiosk" 2>/dev/null || true; fi

# 2. Sample photos (shown until the configured folder has photos) and their licences.
install -d -m 755 "$DESTDIR$DATADIR/photos"
for f in "$here"/assets/photos/*; do
    install -m 644 "$f" "$DESTDIR$DATADIR/photos/"
done

# 2b. The overlay's offline place table (GeoNames, CC BY 4.0) and its attribution.
install -d -m 755 "$DESTDIR$DATADIR/places"
install -m 644 "$here"/assets/places/places.bin "$here"/assets/places/ATTRIBUTION.md "$DESTDIR$DATADIR/places/"

# 3. The configuration, only when there is none: an update never overwrites the person's edits.
#    The example screen-off periods at the end of deploy/config.toml are installed commented out
#    (the screen stays on until someone sets a schedule).
install -d -m 755 "$DESTDIR$CONFDIR"
if [ -e "$DESTDIR$CONFDIR/config.toml" ]; then
    echo "Keeping the existing $CONFDIR/config.toml (the new example is $DATADIR/config.toml.example)"
else
    awk 'BEGIN { examples = 0 }
         /^\[\[schedule\.period\]\]/ { examples = 1 }
         { if (examples && $0 != "" && $0 !~ /^#/) print "# " $0; else print }' \
        "$here/deploy/config.toml" > "$DESTDIR$CONFDIR/config.toml"
    # A random remote token on first install (the remote stays off until [remote] listen is set);
    # the file then holds a secret: root and the photokiosk group only.
    if [ "$token" -eq 1 ]; then
        secret="$(head -c 18 /dev/urandom | base64 | tr '+/' '-_')"
        sed -i '/^\[remote\]/,/^\[/ s|^token = ""|token = "'"$secret"'"|' "$DESTDIR$CONFDIR/config.toml"
        chmod 640 "$DESTDIR$CONFDIR/config.toml"
        new_config=1
    fi
fi
install -m 644 "$here/deploy/config.toml" "$DESTDIR$DATADIR/config.toml.example"

# 4. The systemd unit, pointing at where the program was installed.
install -d -m 755 "$DESTDIR$UNITDIR"
sed "s|^ExecStart=/usr/local/bin/photokiosk|ExecStart=$PREFIX/bin/photokiosk|" \
    "$here/deploy/photokiosk.service" > "$DESTDIR$UNITDIR/photokiosk.service"
chmod 644 "$DESTDIR$UNITDIR/photokiosk.service"
# The sources' sync (issue 34): the script rclone runs from, its unit and timer.
install -D -m 755 "$here/deploy/photokiosk-sync" "$DESTDIR$PREFIX/lib/photokiosk/photokiosk-sync"
sed -e "s|^ExecStart=/usr/local/lib/|ExecStart=$PREFIX/lib/|" -e "s|PHOTOKIOSK=/usr/local/bin/|PHOTOKIOSK=$PREFIX/bin/|" \
    "$here/deploy/photokiosk-sync.service" > "$DESTDIR$UNITDIR/photokiosk-sync.service"
install -m 644 "$here/deploy/photokiosk-sync.timer" "$DESTDIR$UNITDIR/photokiosk-sync.timer"
chmod 644 "$DESTDIR$UNITDIR/photokiosk-sync.service"
# No login prompt on tty1 while the kiosk is enabled (a condition, so nothing edits getty).
install -D -m 644 "$here/deploy/getty@tty1.service.d/photokiosk.conf" \
    "$DESTDIR$UNITDIR/getty@tty1.service.d/photokiosk.conf"

# 5. udev: backlight access for blank = "backlight"; the touch-rotation rules stay an example.
[ -z "$UDEVDIR" ] || install -D -m 644 "$here/deploy/99-photokiosk.rules" "$DESTDIR$UDEVDIR/99-photokiosk.rules"
install -m 644 "$here/deploy/60-photokiosk-touch.rules.example" "$DESTDIR$DATADIR/60-photokiosk-touch.rules.example"

# 6. The user, its groups and folders, and the service. Skipped when staging.
groups_present() {
    for g in video render input; do getent group "$g" >/dev/null && printf '%s,' "$g"; done
}
if [ -n "$DESTDIR" ]; then
    echo "Staged in $DESTDIR. On the target: create the photokiosk user (video, render, input groups),"
    echo "/var/cache/photokiosk and /var/lib/photokiosk, then: systemctl enable photokiosk"
    exit 0
fi

groups="$(groups_present)"; groups="${groups%,}"
if ! id photokiosk >/dev/null 2>&1; then
    useradd --system --user-group --home-dir /var/lib/photokiosk --no-create-home \
            --shell /usr/sbin/nologin ${groups:+--groups "$groups"} photokiosk
else
    [ -n "$groups" ] && usermod --append --groups "$groups" photokiosk
fi
install -d -m 755 -o photokiosk -g photokiosk /var/cache/photokiosk /var/lib/photokiosk
[ "${new_config:-0}" -eq 1 ] && chgrp photokiosk "$CONFDIR/config.toml"
# GStreamer's plugin registry where the unit's GST_REGISTRY_1_0 points, written by the kiosk's user
# now, so its first clip does not load every plugin into the kiosk (the Debian package also does
# it whenever a GStreamer plugin package changes; here, run it again after installing plugins).
# In the service's environment (its user's HOME): GStreamer reads every plugin again when a value
# a plugin depends on (libvisual: HOME) differs from the registry's.
runuser -u photokiosk -- env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin HOME="$(getent passwd photokiosk | cut -d: -f6)" \
    GST_REGISTRY_1_0=/var/cache/photokiosk/gstreamer-registry.bin "$PREFIX/bin/photokiosk" prepare-clips \
    || echo "Could not prepare GStreamer's registry; the first video clip will read every plugin (run: sudo -u photokiosk $PREFIX/bin/photokiosk prepare-clips)"

udevadm control --reload-rules 2>/dev/null && udevadm trigger --subsystem-match=backlight 2>/dev/null || true
if [ ! -d /run/systemd/system ]; then
    echo "Installed; systemd is not running here (a container or chroot): enable photokiosk.service on the target."
    exit 0
fi
systemctl daemon-reload
if [ "$enable" -eq 1 ]; then
    systemctl enable photokiosk.service
    systemctl enable --now photokiosk-sync.timer
    systemctl restart photokiosk.service
    echo "PhotoKiosk is running and starts at every boot. Logs: journalctl -u photokiosk -f"
else
    echo "Installed. Start it with: systemctl enable --now photokiosk"
fi
