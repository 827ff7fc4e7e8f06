#!/bin/sh
# Guest side of the `faults` stage (issue 11, item 3): the real photokiosk on DRM + libinput
# while devices come and go. The host screendumps at each READY line (harness.py, FAULT rules).
#   faults_start          a settled grid
#   faults_hotplug        a second touchscreen plugged in and pulled out twice; the first one
#                         still works (a tap opens a photo)
#   faults_drm            DRM change uevents, then Escape: the grid, redrawn, the app alive
#   faults_touch_held     a finger held on a tile on the primary touchscreen: the long press
#                         lifts the thumbnail
#   faults_touch_gone     the primary touchscreen destroyed while the finger is down: libinput
#                         cancels the touch, the thumbnail lands back (the grid as before)
#   faults_touch_back     the primary touchscreen created again: a tap on it opens a photo
#   faults_grid           Escape: the grid again
#   faults_display_off    the connector forced off through sysfs (status "off" + hotplug
#                         uevent): the app stops drawing and switches the CRTC off
#   faults_display_on     the connector back ("detect"): modeset again, the same grid redrawn
#   faults_master_stolen  a root helper takes DRM master away from the app mid-run (pidfd_getfd
#                         + DROP_MASTER on the app's own open file) and shows orange
#   faults_master_back    the app, drawing (a tap), finds master gone; the helper exits; the app
#                         takes master again within a second and redraws (a photo)
#   faults_vt             SIGSTOP/SIGCONT (a wedged moment) and a swipe: the screen is kept
#   faults_wait_master    photokiosk started again while the helper holds master (magenta): it
#                         waits and says so
#   faults_master_free    the helper exits: the app takes the screen, the grid
# Exit status 0 on SIGTERM (both runs), and the log must have no "fatal"/"crash".
held() { i=0; while ! grep -q holding /tmp/drmhold.log && [ $i -lt 300 ]; do sleep 0.1; i=$((i+1)); done
        grep -q holding /tmp/drmhold.log || { cat /tmp/drmhold.log; fail "drmhold did not take master"; }; }
ready() { echo "@@READY $1"; read -t 600 ack; }
touch_cmd() { echo "$1" > "$PHOTOKIOSK_E2E_FIFO"; }
alive() { kill -0 $APP 2>/dev/null || { tail -n 40 /tmp/app.log; echo "@@APP_DIED $1"; exit 1; }; }
fail() { echo "@@FAULT_FAIL $1"; tail -n 30 /tmp/app.log; exit 1; }
logged() { i=0; while ! grep -q "$1" /tmp/app.log && [ $i -lt 3000 ]; do sleep 0.1; i=$((i+1)); done
           grep -q "$1" /tmp/app.log || fail "not in the log: $1"; grep "$1" /tmp/app.log | tail -n 1 | sed 's/^/@@FAULT_LOG /'; }
crtc() {   # the kernel's atomic state of the first CRTC: "enable=1" while it scans out
  [ -r /sys/kernel/debug/dri/0/state ] || mount -t debugfs none /sys/kernel/debug 2>/dev/null
  awk '/^crtc\[/{c=1} c && /enable=/{print $1; exit}' /sys/kernel/debug/dri/0/state 2>/dev/null
}
seen() {   # wait until the log has line $1 at least $2 times
  i=0; while [ $(grep -c "$1" /tmp/app.log) -lt $2 ] && [ $i -lt 3000 ]; do sleep 0.1; i=$((i+1)); done
  [ $(grep -c "$1" /tmp/app.log) -ge $2 ] || fail "fewer than $2 times in the log: $1"
}
drm_uevent() {   # what the kernel sends when a screen is plugged or unplugged
  if [ "${PHOTOKIOSK_E2E_UDEVD:-0}" = 1 ]; then
    udevadm trigger --action=change --subsystem-match=drm; udevadm settle -t 5
  else
    for c in /sys/class/drm/card*; do echo change > "$c/uevent" 2>/dev/null; done
  fi
}
# --idle-timeout 3600: no slideshow takes over the grid while a slow guest still loads thumbnails
run_app() { /opt/pk/photokiosk run --display drm --input libinput --photos /opt/pk/photos --idle-timeout 3600 >> /tmp/app.log 2>&1 & APP=$!; }
escape() { touch_cmd "key 1 1"; touch_cmd "key 1 0"; }
. /opt/pk/grid.env   # TILE: the centre of row 2, column 2 of the unscrolled grid (e2e/grid-photos.py)

run_app
sleep 2; alive start
# While the thumbnails load: a second touchscreen comes and goes twice.
for n in 1 2; do
  touch_cmd "plug"; seen "input device added: photokiosk-e2e-hotplug" $n; alive plug
  touch_cmd "unplug"; seen "input device removed: photokiosk-e2e-hotplug" $n; alive unplug
done
grep -c "input device removed: photokiosk-e2e-hotplug" /tmp/app.log | sed 's/^/@@HOTPLUG_REMOVALS_SEEN /'
# Every thumbnail in before the first screendump (TCG is slow): later changes then come from
# the faults and gestures. The disk cache holds one file per photo once all are made.
PHOTOS=$(ls /opt/pk/photos | wc -l); i=0
while [ $(find /var/cache/photokiosk -type f ! -name '.*' 2>/dev/null | wc -l) -lt $PHOTOS ] && [ $i -lt 300 ]; do sleep 0.1; i=$((i+1)); done
echo "@@FAULT_THUMBNAILS $(find /var/cache/photokiosk -type f ! -name '.*' 2>/dev/null | wc -l) of $PHOTOS after $((i / 10)) s more"
sleep 1; ready faults_start
touch_cmd "tap $TILE"; ready faults_hotplug
drm_uevent
sleep 1; alive drm
escape; ready faults_drm

# The primary touchscreen goes away with a finger down, and comes back.
touch_cmd "down $TILE"; sleep 1.5; ready faults_touch_held
touch_cmd "remove"
logged "input device removed: photokiosk-e2e-touchscreen"
logged "touch [0-9]* cancelled"
alive remove
ready faults_touch_gone
touch_cmd "add"
if [ "${PHOTOKIOSK_E2E_UDEVD:-0}" != 1 ]; then   # no udevd: the udev database stub init writes
  NODE=$(awk '$1=="@@UINPUT_ADDED"{n=$2} END{print n}' /tmp/uitouch.out)
  MAJ=$((0x$(stat -c %t $NODE))); MIN=$((0x$(stat -c %T $NODE)))
  printf 'I:%s\nE:ID_INPUT=1\nE:ID_INPUT_TOUCHSCREEN=1\nG:seat\n' "$(date +%s)000000" > /run/udev/data/c$MAJ:$MIN
fi
seen "input device added: photokiosk-e2e-touchscreen" 2
alive add
touch_cmd "tap $TILE"; ready faults_touch_back
escape; ready faults_grid

# The screen unplugged and plugged again: the kernel forces the connector's state.
STATUS=$(ls -d /sys/class/drm/card0-*/status | head -n 1)
echo "@@FAULT_CONNECTOR $STATUS $(cat $STATUS) crtc $(crtc)"
kernel_uevents() {   # change uevents the kernel itself sent for the connector write, if any
  [ -n "${MON:-}" ] || return 0
  sleep 0.5; echo "@@FAULT_KERNEL_UEVENTS_AFTER_$1 $(grep -c change /tmp/uevents.log)"; kill $MON; wait $MON 2>/dev/null; MON=
}
watch_uevents() {
  [ "${PHOTOKIOSK_E2E_UDEVD:-0}" = 1 ] || return 0
  udevadm monitor --kernel --subsystem-match=drm > /tmp/uevents.log 2>&1 & MON=$!; sleep 0.5
}
watch_uevents; echo off > $STATUS; kernel_uevents OFF
drm_uevent
logged "disconnected: drawing paused"
echo "@@FAULT_CONNECTOR $(cat $STATUS) crtc $(crtc)"
alive display-off
[ "$(crtc)" = enable=0 ] || fail "CRTC still on after the screen went away: $(crtc)"
ready faults_display_off
watch_uevents; echo detect > $STATUS; kernel_uevents DETECT
drm_uevent
logged "screen connected: "
alive display-on
echo "@@FAULT_CONNECTOR $(cat $STATUS) crtc $(crtc)"
[ "$(crtc)" = enable=1 ] || fail "CRTC not on again: $(crtc)"
ready faults_display_on

# DRM master taken away mid-run by root, then given back.
: > /tmp/drmhold.log   # emptied here, not in the child: held() must not see the last run's lines
/opt/pk/drmhold steal $APP ff8000 >> /tmp/drmhold.log 2>&1 & HOLD=$!
held; sed 's/^/@@FAULT_HOLD /' /tmp/drmhold.log; ready faults_master_stolen
touch_cmd "tap $TILE"   # the app draws the photo: page flip refused
logged "lost DRM master"
alive stolen
kill -TERM $HOLD; wait $HOLD
logged "regained DRM master"
ready faults_master_back
escape

kill -STOP $APP; sleep 1; kill -CONT $APP; sleep 0.5; alive stop-cont
touch_cmd "swipe 2048 3400 2048 700 15"; ready faults_vt
kill -TERM $APP; wait $APP; rc=$?
echo "@@APP_EXIT $rc (first run)"

# Started while another program holds DRM master: waits, then takes the screen.
: > /tmp/drmhold.log
/opt/pk/drmhold hold ff00ff >> /tmp/drmhold.log 2>&1 & HOLD=$!
held; sed 's/^/@@FAULT_HOLD /' /tmp/drmhold.log
run_app
logged "another program is DRM master"
alive waiting
ready faults_wait_master
kill -TERM $HOLD; wait $HOLD
logged "became DRM master"
ready faults_master_free
kill -TERM $APP; wait $APP; rc2=$?
echo "@@APP_EXIT $rc2 (second run)"
[ $rc2 = 0 ] || rc=$rc2

tail -n 60 /tmp/app.log
if grep -qi -e fatal -e crash /tmp/app.log; then echo "@@APP_LOG_FATAL"; rc=1; fi
echo "@@APP_EXIT $rc"
[ $rc = 0 ]
