#!/bin/sh
# Guest side of the app stage: the real photokiosk on DRM + libinput, walked through a swipe and
# a tap on the uinput touchscreen. The host screendumps at each READY line (retrying until the
# screen matches or the stage times out) and answers "ok".
ready() { echo "@@READY $1"; read -t 60 ack; }
touch_cmd() { echo "$1" > "$PHOTOKIOSK_E2E_FIFO"; }
/opt/pk/photokiosk run --display drm --input libinput --photos /opt/pk/photos > /tmp/app.log 2>&1 &
APP=$!
sleep 2
if ! kill -0 $APP 2>/dev/null; then cat /tmp/app.log; echo "@@APP_DIED"; exit 1; fi
ready app_start                                             # a photo grid, settled
touch_cmd "swipe 2048 3400 2048 700 15"; ready app_swipe   # scrolled, momentum over
touch_cmd "tap 1536 1638"; ready app_tap                    # a photo opened (a tile centre, not a gutter)
touch_cmd "key 1 1"; touch_cmd "key 1 0"; ready app_back   # Escape: back to the grid
kill -TERM $APP; wait $APP; rc=$?
tail -n 40 /tmp/app.log
echo "@@APP_EXIT $rc"
ready app_exit                                       # console back (informational)
[ $rc = 0 ]
