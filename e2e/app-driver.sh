#!/bin/sh
# Guest side of the app stage: the real photokiosk on DRM + libinput, walked through a swipe and
# a tap on the uinput touchscreen. The host screendumps at each READY line (retrying until the
# screen matches or the stage times out) and answers "ok". The photos and the tap points come from
# e2e/grid-photos.py (grid.env).
. /opt/pk/grid.env
ready() { echo "@@READY $1"; read -t 600 ack; }
touch_cmd() { echo "$1" > "$PHOTOKIOSK_E2E_FIFO"; }
# --idle-timeout 3600: no slideshow takes over the grid while a slow guest still loads thumbnails
/opt/pk/photokiosk run --display drm --input libinput --photos /opt/pk/photos --idle-timeout 3600 > /tmp/app.log 2>&1 &
APP=$!
sleep 2
if ! kill -0 $APP 2>/dev/null; then cat /tmp/app.log; echo "@@APP_DIED"; exit 1; fi
ready app_start                                             # a photo grid, settled
touch_cmd "swipe 2048 3400 2048 700 15"; ready app_swipe   # scrolled to the end (one row), momentum over
touch_cmd "tap $SCROLLED_TAP"; ready app_tap                # a tile centre of the scrolled grid: that photo opened
touch_cmd "key 1 1"; touch_cmd "key 1 0"; ready app_back   # Escape: back to the grid
kill -TERM $APP; wait $APP; rc=$?
tail -n 40 /tmp/app.log
grep -q "opened photo $SCROLLED_PHOTO of $GRID_PHOTOS:" /tmp/app.log || { echo "@@APP_FAIL the tap did not open photo $SCROLLED_PHOTO"; rc=1; }
echo "@@APP_EXIT $rc"
ready app_exit                                       # console back (informational)
[ $rc = 0 ]
