#!/bin/sh
# Guest side of the optional `faults` stage (issue 11, item 3): the real photokiosk on DRM +
# libinput while devices come and go. MODES="faults" e2e/run.sh (not in the default MODES).
#   faults_start    a settled grid
#   faults_hotplug  a touchscreen plugged in and pulled out twice while running; the original
#                   one still works (a tap opens a photo)
#   faults_drm      DRM change uevents (what a monitor plugged/unplugged sends) and the photo
#                   closed again: the grid is redrawn, the app alive
#   faults_vt       another DRM master (a VT switch / second client) takes the screen and lets
#                   go is covered at the platform level (master_regained); here SIGSTOP/SIGCONT
#                   (a wedged moment) must not lose the screen
# Exit status 0 on SIGTERM at the end, and the log must have no "fatal"/"crash".
ready() { echo "@@READY $1"; read -t 60 ack; }
touch_cmd() { echo "$1" > "$PHOTOKIOSK_E2E_FIFO"; }
alive() { kill -0 $APP 2>/dev/null || { tail -n 40 /tmp/app.log; echo "@@APP_DIED $1"; exit 1; }; }
/opt/pk/photokiosk run --display drm --input libinput --photos /opt/pk/photos > /tmp/app.log 2>&1 &
APP=$!
sleep 2; alive start
# Let every thumbnail arrive first (TCG is slow): later changes then come from the gestures.
sleep 25; ready faults_start
for i in 1 2; do touch_cmd "plug"; sleep 3; alive plug; touch_cmd "unplug"; sleep 2; alive unplug; done
grep -c "device removed" /tmp/app.log | sed 's/^/@@HOTPLUG_REMOVALS_SEEN /'
touch_cmd "tap 1536 2458"; ready faults_hotplug   # the centre of row 2, column 2 (unscrolled grid)
if [ "${PHOTOKIOSK_E2E_UDEVD:-0}" = 1 ]; then
  udevadm trigger --action=change --subsystem-match=drm; udevadm settle -t 5
else
  for c in /sys/class/drm/card*; do echo change > "$c/uevent" 2>/dev/null; done
fi
sleep 1; alive drm
touch_cmd "key 1 1"; touch_cmd "key 1 0"; ready faults_drm
kill -STOP $APP; sleep 2; kill -CONT $APP; sleep 1; alive stop-cont
touch_cmd "swipe 2048 3400 2048 700 15"; ready faults_vt
kill -TERM $APP; wait $APP; rc=$?
tail -n 40 /tmp/app.log
if grep -qi -e fatal -e crash /tmp/app.log; then echo "@@APP_LOG_FATAL"; rc=1; fi
echo "@@APP_EXIT $rc"
[ $rc = 0 ]
