#!/bin/sh
# Guest side of the seat stage: Debian's seatd as root, photokiosk as an unprivileged user whose
# groups cannot open /dev/dri or /dev/input, so the screen and touch can only come through
# libseat. A VT switch away and back must pause drawing and bring the grid back.
ready() { echo "@@READY $1"; read -t 600 ack; }
fail() { echo "@@SEAT_FAIL $1"; tail -n 40 /tmp/app.log; tail -n 20 /tmp/seatd.log; exit 1; }
ln -sf /opt/pk/libseat-e2e.so /lib/x86_64-linux-gnu/libseat.so.1   # see run.sh
echo 'kiosk:x:1000:44:kiosk:/tmp/kiosk:/bin/sh' >> /etc/passwd
mkdir -p /tmp/kiosk && chown 1000:44 /tmp/kiosk
chmod 0600 /dev/dri/card* /dev/input/event*      # no way in except through the seat
/opt/pk/seatd -g video -l info > /tmp/seatd.log 2>&1 &
i=0; while [ ! -S /run/seatd.sock ] && [ $i -lt 50 ]; do sleep 0.1; i=$((i+1)); done
[ -S /run/seatd.sock ] || fail "seatd did not start"
su -s /bin/sh kiosk -c "HOME=/tmp/kiosk PHOTOKIOSK_SEAT=libseat exec /opt/pk/photokiosk run --display drm \
  --input libinput --photos /opt/pk/photos --idle-timeout 3600 > /tmp/app.log 2>&1" &   # no slideshow over the grid
sleep 3
APP=$(pidof photokiosk)
[ -n "$APP" ] || fail "photokiosk died"
echo "@@SEAT_APP pid=$APP uid=$(awk '/^Uid:/{print $2}' /proc/$APP/status)"
ready seat_start                      # the photo grid, through seatd
chvt 2; sleep 1; ready seat_vt_away   # another VT: the seat is disabled, the console shows
chvt 1; ready seat_back               # back: the seat is enabled, the grid is redrawn
touch_cmd() { echo "$1" > "$PHOTOKIOSK_E2E_FIFO"; }
. /opt/pk/grid.env   # TILE: a tile centre (e2e/grid-photos.py)
touch_cmd "tap $TILE"; ready seat_touch   # touch still works (devices reopened via the seat): that photo opened
kill -TERM $APP
i=0; while kill -0 $APP 2>/dev/null && [ $i -lt 50 ]; do sleep 0.1; i=$((i+1)); done
grep -E "seat|libseat|input device|DRM" /tmp/app.log | sed 's/^/@@SEAT_LOG /'
grep -q "using libseat seat seat0" /tmp/app.log || fail "no libseat seat in the log"
grep -q "seat seat0 disabled" /tmp/app.log || fail "no seat disable in the log"
grep -q "seat seat0 enabled again" /tmp/app.log || fail "no seat enable in the log"
grep -q "opened photo $TILE_PHOTO of $GRID_PHOTOS:" /tmp/app.log || fail "the tap did not open photo $TILE_PHOTO"
echo "@@SEAT_OK"
