#!/bin/bash
# Guest side of the unit stage (bash: Debian's sh has no `read -t`): Debian's systemd is init and photokiosk.service runs as the
# Debian package installed it, inside its sandbox. This script (pk-e2e.service, on the serial
# console) checks the sandbox took hold, then walks the kiosk through a swipe, a tap and a
# scheduled blank and a waking tap; the host screendumps at each READY line.
ready() { echo "@@READY $1"; read -t 600 ack; }
fail() { echo "@@UNIT_FAIL $1"; journalctl -u photokiosk -n 40 --no-pager; echo "@@EXIT 1"; systemctl poweroff; exit 1; }
touch_cmd() { echo "$1" > /tmp/touch.fifo; }
. /opt/pk/grid.env   # the library's photos and the tap points (e2e/grid-photos.py)
echo "@@BOOTED systemd $(systemctl is-system-running)"
# The root is read-only (readonly-root.sh, issue 33 item 4); only the state folder is written.
# The driver, like an owner who turns the overlay off to edit the config, makes / writable only
# for its edits and read-only again before the kiosk restarts.
grep -q '^[^ ]* / [^ ]* ro[, ]' /proc/mounts || fail "the root is not read-only: $(grep ' / ' /proc/mounts)"
config_append() { mount -o remount,rw /; cat >> /etc/photokiosk/config.toml; mount -o remount,ro /; }

# The virtual touchscreen; systemd-udevd announces it and libinput in the kiosk picks it up.
mkfifo /tmp/touch.fifo; : > /tmp/uitouch.out
/opt/pk/uitouch /tmp/touch.fifo > /tmp/uitouch.out 2>&1 &
i=0; while ! grep -q '@@UINPUT2' /tmp/uitouch.out && [ $i -lt 100 ]; do sleep 0.1; i=$((i+1)); done
udevadm settle -t 10

# The service is up on DRM (config: backend = "drm"; until the GPU's module is loaded it exits
# and systemd restarts it) and drawing.
i=0; while ! journalctl -u photokiosk --no-pager | grep -q "screen: DRM" && [ $i -lt 3000 ]; do sleep 0.1; i=$((i+1)); done
[ "$(systemctl is-active photokiosk.service)" = active ] || fail "photokiosk.service is not active"
pid=$(systemctl show -p MainPID --value photokiosk.service)
echo "@@UNIT_PID $pid user $(stat -c %U /proc/$pid)"
status=/proc/$pid/status
grep -q '^NoNewPrivs:[[:space:]]*1' $status || fail "NoNewPrivs is not set"
grep -q '^Seccomp:[[:space:]]*2' $status || fail "no system-call filter"
grep -q '^CapBnd:[[:space:]]*0000000000000000' $status || fail "the capability bounding set is not empty"
[ "$(stat -c %U /proc/$pid)" = photokiosk ] || fail "not running as the photokiosk user"
# ProtectSystem=strict: the kiosk's view of /usr is read-only; its cache folder is writable.
grep -q ' /usr .* ro[, ]' /proc/$pid/mountinfo || grep -q ' / / ro[, ]' /proc/$pid/mountinfo || fail "/usr is writable for the kiosk"
systemd-analyze security --threshold=25 photokiosk.service > /tmp/security.txt 2>&1 || fail "$(tail -n 1 /tmp/security.txt)"
echo "@@UNIT_SANDBOX ok: $(tail -n 1 /tmp/security.txt)"

ready unit_start                                            # the photo grid, settled
journalctl -u photokiosk --no-pager | grep -q "library: $GRID_PHOTOS photos" || fail "the library is not the $GRID_PHOTOS photos in /var/lib/photokiosk/photos"
touch_cmd "swipe 2048 3400 2048 700 15"; ready unit_swipe  # scrolled by the touchscreen (to the end: one row)
touch_cmd "tap $SCROLLED_TAP"; ready unit_tap               # the photo under the tap opened
journalctl -u photokiosk --no-pager | grep -q "opened photo $SCROLLED_PHOTO of $GRID_PHOTOS:" || fail "the tap did not open photo $SCROLLED_PHOTO"
# /var/cache/photokiosk is on the read-only root: the kiosk says so once and keeps its
# thumbnails in the state folder.
journalctl -u photokiosk --no-pager | grep -q "cache: /var/cache/photokiosk is on a read-only file system; thumbnails are kept in /var/lib/photokiosk/cache" \
  || fail "no notice of the read-only cache folder"
i=0; while [ -z "$(find /var/lib/photokiosk/cache -type f | head -n 1)" ] && [ $i -lt 100 ]; do sleep 0.1; i=$((i+1)); done
[ -n "$(find /var/lib/photokiosk/cache -type f | head -n 1)" ] || fail "no thumbnail in /var/lib/photokiosk/cache"
[ -z "$(find /var/cache/photokiosk -type f | head -n 1)" ] || fail "a file in the read-only /var/cache/photokiosk"
echo "@@UNIT_CACHE $(find /var/lib/photokiosk/cache -type f | wc -l) files in /var/lib/photokiosk/cache (root read-only)"

# The remote page's API under the unit (issue 22 item 6): with [remote] on, an upload lands in
# the photo folder (the state folder, which the sandbox leaves writable) and reaches the library.
sample=$(find /usr/share/photokiosk/photos -name '*.jpg' | sort | head -n 1)
[ -n "$sample" ] || fail "no sample photo in /usr/share/photokiosk/photos"
install -d -o photokiosk -g photokiosk -m 755 /var/lib/photokiosk/photos
install -o photokiosk -g photokiosk -m 644 "$sample" /var/lib/photokiosk/photos/first.jpg
token=unit-e2e-token-0123456789abcdef
config_append <<TOML

[remote]
listen = "127.0.0.1:8080"
token = "$token"
reserve_mb = 1    # the guest's root is a RAM disk with little room
TOML
systemctl restart photokiosk.service
api() { curl -sS --max-time 10 -H "Authorization: Bearer $token" "$@"; }
size() { api http://127.0.0.1:8080/api/status | grep -o '"library_size": *[0-9]*' | grep -o '[0-9]*$'; }
i=0; while [ -z "$(size 2>/dev/null)" ] && [ $i -lt 300 ]; do sleep 0.1; i=$((i+1)); done
before=$(size); [ -n "$before" ] || fail "the remote API did not answer under the unit"
[ "$(curl -sS -o /dev/null -w '%{http_code}' http://127.0.0.1:8080/api/status)" = 401 ] || fail "the API answered without the token"
code=$(api -o /tmp/upload.json -w '%{http_code}' -F "photo=@$sample;filename=uploaded-under-unit.jpg" http://127.0.0.1:8080/api/photos)
[ "$code" = 201 ] || fail "upload answered $code: $(cat /tmp/upload.json)"
[ -f /var/lib/photokiosk/photos/uploaded-under-unit.jpg ] || fail "the upload is not in /var/lib/photokiosk/photos"
i=0; while [ "$(size)" != $((before + 1)) ] && [ $i -lt 50 ]; do sleep 0.1; i=$((i+1)); done
[ "$(size)" = $((before + 1)) ] || fail "the library did not grow from $before after the upload"
echo "@@UNIT_UPLOAD ok: 201, library $before -> $(size) photos, $(stat -c '%U %a' /var/lib/photokiosk/photos/uploaded-under-unit.jpg)"

# The config as a frame builder would edit it: a display schedule that is off now (from a minute ago to two hours ahead): DPMS off, a tap wakes.
now=$(date +%s); start=$((now - 60))
config_append <<TOML

[schedule]
blank = "dpms"
wake_minutes = 1

[[schedule.period]]
days = ["$(date -u -d "@$start" +%a | tr 'A-Z' 'a-z')"]
off = "$(date -u -d "@$start" +%H:%M)"
on = "$(date -u -d "@$((now + 7200))" +%H:%M)"
TOML
systemctl restart photokiosk.service
i=0; while ! journalctl -u photokiosk --no-pager | grep -q "screen off" && [ $i -lt 300 ]; do sleep 0.1; i=$((i+1)); done
journalctl -u photokiosk --no-pager | grep -q "screen off (DPMS on" || fail "no DPMS off in the journal"
ready unit_blank
touch_cmd "tap 2048 2048"; ready unit_wake
[ "$(systemctl is-active photokiosk.service)" = active ] || fail "photokiosk.service stopped"
# Nothing the kiosk did hit the read-only root (strerror's EROFS), and the root stayed read-only.
journalctl -u photokiosk --no-pager | grep "Read-only file system" && fail "the kiosk wrote to the read-only root"
grep -q '^[^ ]* / [^ ]* ro[, ]' /proc/mounts || fail "the root became writable"
echo "@@UNIT_READONLY ok: state folder $(ls /var/lib/photokiosk | tr '\n' ' ')"
journalctl -u photokiosk --no-pager | tail -n 15
echo "@@EXIT 0"
systemctl poweroff
