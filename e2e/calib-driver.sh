#!/bin/sh
# Guest side of the `calib` stage: touch calibration and screen rotation with the real photokiosk
# on DRM + libinput. Four short runs of the app (five with pk.rot270=1); each shows the grid
# (screendump), takes one tap from the uinput touchscreen at a raw panel position, and the log
# must name the photo that tap opened ("opened photo N of 48: …/photo-NN.jpg"). The host checks
# each screendump (harness.py, `calib_*` and `rot*` rules, and grid-photos.py's: where the gaps
# are, and each photo's own colour in the cells and in the album).
#
# The photos and the tap points come from e2e/grid-photos.py (grid.env), which restates the
# grid's layout rule: landscape 1280x800 (rotation 0 and 180) 8 columns x 5 rows of 149.9 px
# cells, 9 px column gaps, 8.44 px row gaps; portrait 800x1280 (rotation 90 and 270) 5 x 8 of
# 149.2 px, 9.6 px row gaps. Touch positions are uitouch's device units 0..4095 on both axes (px·4096/1280,
# py·4096/800). With 48 photos:
#   calib_grid     no calibration, rotation 0: the grid
#   calib_plain    tap P = (84,400) px, the centre of row 2 column 0: photo 17, the photo under P
#   calib_back     Escape: the same grid (not scrolled)
#   calib_target   tap Q = P + a quarter of the width = (404,400) px, column 2: photo 19, the
#                  reference for ↓
#   calib_offset   --calibration "1 0 0.25 0 1 0" (x + a quarter of the width), tap P: photo 19,
#                  the screen of calib_target — not photo 17, which is under P
#   rot90_grid     --rotation 90: the portrait grid turned clockwise (host: its gaps, its first
#                  photo at the panel's top right and its last whole cell at the bottom left)
#   rot90_tap      tap (1037,400) px = logical (400,243), row 1 column 2: photo 8
#   rot180_grid    from the TOML config: rotation = 180 and calibration = [1,0,0.25,0,1,0]:
#                  calib_grid turned by 180°
#   rot180_tap     tap P: calibrated on the panel (404,400), then rotated: logical (876,400),
#                  photo 22 (row 2 column 5). Without calibration it would be photo 24;
#                  calibration applied after the rotation would miss the grid.
#   rot270_grid    (pk.rot270=1 only) --rotation 270: rot90_grid turned by 180°
#   rot270_tap     tap (878,716) px = logical (84,878), row 5 column 0: photo 26
. /opt/pk/grid.env
ready() { echo "@@READY $1"; read -t 600 ack; }
touch_cmd() { echo "$1" > "$PHOTOKIOSK_E2E_FIFO"; }
fail() { echo "@@CALIB_FAIL $1"; tail -n 30 /tmp/app.log; exit 1; }
alive() { kill -0 $APP 2>/dev/null || { tail -n 40 /tmp/app.log; echo "@@APP_DIED $1"; exit 1; }; }
logged() {   # wait (up to 300 s: a loaded host slows TCG; see harness.py SLOW) until the log has $1; print it
  i=0; while ! grep -q "$1" /tmp/app.log && [ $i -lt 3000 ]; do sleep 0.1; i=$((i+1)); done
  grep -q "$1" /tmp/app.log || fail "not in the log: $1"; grep "$1" /tmp/app.log | tail -n 1 | sed "s/^.*\] /@@CALIB_LOG t=$(up) /"
}
up() { cut -d' ' -f1 /proc/uptime; }
tap_opens() {   # tap at $1 $2 (device units): the app must open photo $3 ("opened photo N of 48: …/photo-NN.jpg")
  n=$(grep -c "opened photo" /tmp/app.log)
  touch_cmd "tap $1 $2"
  i=0; while [ $(grep -c "opened photo" /tmp/app.log) -le $n ] && [ $i -lt 3000 ]; do sleep 0.1; i=$((i+1)); done
  got=$(grep "opened photo" /tmp/app.log | tail -n 1 | sed 's/^.*opened photo //')
  echo "@@CALIB_OPENED $got"
  want="$3 of $GRID_PHOTOS: /opt/pk/photos/$(printf 'photo-%02d.jpg' $3)"
  [ "$got" = "$want" ] || fail "tap $1 $2 opened \"$got\", want photo $want"
}
start_app() {   # a fresh start: no resume state (it would reopen the last photo or scroll position)
  rm -f /var/lib/photokiosk/resume
  echo "@@CALIB_START t=$(up) $*"
  : > /tmp/app.log   # emptied here: the background job's own redirection may come after the first grep
  # --idle-timeout 3600: no slideshow takes over the grid while a slow guest still loads thumbnails
  /opt/pk/photokiosk run --display drm --input libinput --photos /opt/pk/photos --idle-timeout 3600 "$@" >> /tmp/app.log 2>&1 & APP=$!
  logged "screen: DRM"
  logged "library: $GRID_PHOTOS photos"
  logged "input device added: photokiosk-e2e-touchscreen"
  alive start
}
stop_app() {
  kill -TERM $APP; wait $APP; code=$?
  echo "@@CALIB_STOPPED t=$(up) $1"
  cat /tmp/app.log >> /tmp/calib-all.log
  [ $code = 0 ] || fail "photokiosk $1 exited with $code"
  if grep -qi -e fatal -e crash /tmp/app.log; then fail "fatal/crash in the log ($1)"; fi
}
escape() { touch_cmd "key 1 1"; touch_cmd "key 1 0"; }
P=$CALIB_P; Q=$CALIB_Q

start_app
ready calib_grid
tap_opens $P $CALIB_P_PHOTO; ready calib_plain
escape; ready calib_back
tap_opens $Q $CALIB_Q_PHOTO; ready calib_target
stop_app plain

start_app --calibration "1 0 0.25 0 1 0"
logged "photokiosk-e2e-touchscreen: calibration matrix 1.0 0.0 0.25 0.0 1.0 0.0"
ready calib_offset_grid
tap_opens $P $CALIB_Q_PHOTO; ready calib_offset
stop_app calibration

start_app --rotation 90
ready rot90_grid
tap_opens $ROT90_TAP $ROT90_PHOTO; ready rot90_tap
stop_app rotation-90

printf '[display]\nrotation = 180\n[input]\ncalibration = [1, 0, 0.25, 0, 1, 0]\n' > /tmp/rot180.toml
start_app --config /tmp/rot180.toml
logged "photokiosk-e2e-touchscreen: calibration matrix 1.0 0.0 0.25 0.0 1.0 0.0"
ready rot180_grid
tap_opens $P $ROT180_PHOTO; ready rot180_tap
stop_app rotation-180

# 270 only on request (E2E_APPEND=pk.rot270=1 e2e/run.sh): one more app run, ~9 s per display.
if grep -q "pk.rot270=1" /proc/cmdline; then
  start_app --rotation 270
  ready rot270_grid
  tap_opens $ROT270_TAP $ROT270_PHOTO; ready rot270_tap
  stop_app rotation-270
fi

echo "@@APP_EXIT 0"
