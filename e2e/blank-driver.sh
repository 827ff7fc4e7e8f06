#!/bin/sh
# Guest side of the blank stage: photokiosk with a display schedule that is off right now (from a
# minute ago to two hours ahead, computed from the guest's clock), so it switches the connector's
# DPMS off; a tap wakes the screen for wake_minutes and the grid comes back.
ready() { echo "@@READY $1"; read -t 600 ack; }
fail() { echo "@@BLANK_FAIL $1"; tail -n 40 /tmp/app.log; exit 1; }
touch_cmd() { echo "$1" > "$PHOTOKIOSK_E2E_FIFO"; }
now=$(date +%s)
start=$((now - 60))                                   # the period began a minute ago (maybe yesterday)
day=$(date -u -d "@$start" +%a | tr 'A-Z' 'a-z')
off=$(date -u -d "@$start" +%H:%M)
on=$(date -u -d "@$((now + 7200))" +%H:%M)            # earlier than off: runs past midnight
cat > /tmp/blank.toml <<TOML
[schedule]
blank = "dpms"
wake_minutes = 1

[[schedule.period]]
days = ["$day"]
off = "$off"
on = "$on"
TOML
echo "@@BLANK_SCHEDULE $day $off-$on (guest clock $(date -u +'%a %H:%M:%S'))"
TZ=UTC /opt/pk/photokiosk run --display drm --input libinput --photos /opt/pk/photos \
  --config /tmp/blank.toml --idle-timeout 3600 > /tmp/app.log 2>&1 &   # the grid when woken, not a slideshow
APP=$!
i=0; while ! grep -q "screen off" /tmp/app.log && kill -0 $APP 2>/dev/null && [ $i -lt 3000 ]; do sleep 0.1; i=$((i+1)); done
kill -0 $APP 2>/dev/null || fail "photokiosk died"
grep "screen off" /tmp/app.log | sed 's/^/@@BLANK_LOG /'
grep -q "screen off (DPMS on" /tmp/app.log || fail "no DPMS off in the log"
dpms() { cat /sys/class/drm/card*-*/dpms | head -n 1; }    # the kernel's view of the connector
echo "@@BLANK_DPMS $(dpms)"; [ "$(dpms)" = Off ] || fail "the connector's DPMS is not Off"
ready blank_off                                       # black (bochs) or QEMU's "not active" (virtio)
touch_cmd "tap 1536 1638"
i=0; while ! grep -q "screen on" /tmp/app.log && [ $i -lt 150 ]; do sleep 0.1; i=$((i+1)); done
grep -E "woken|screen on" /tmp/app.log | sed 's/^/@@BLANK_LOG /'
grep -q "screen woken by a touch" /tmp/app.log || fail "the tap did not wake the screen"
echo "@@BLANK_DPMS $(dpms)"; [ "$(dpms)" = On ] || fail "the connector's DPMS is not On"
ready blank_wake                                      # the photo grid again
kill -TERM $APP; wait $APP; rc=$?
echo "@@BLANK_EXIT $rc"
[ $rc = 0 ] || fail "photokiosk exit status $rc"
