#!/bin/sh
# Guest side of the `calib` stage: touch calibration and screen rotation with the real photokiosk
# on DRM + libinput. Four short runs of the app (five with pk.rot270=1); each shows the grid
# (screendump), takes one tap from the uinput touchscreen at a raw panel position, and the log
# must name the photo that tap opened ("opened photo N of 11: …"). The host checks each
# screendump (harness.py, `calib_*` and `rot*` rules).
#
# Landscape grid (1280x800, rotation 0 and 180): 4 columns of 310 px cells, 8 px gaps; portrait
# grid (800x1280, rotation 90 and 270): 3 columns of 256 px. Photos in name order:
#   1 GreenTraditional 2 Aqua 3 FreshFlower 4 Garden 5 GreenMeadow 6 LadyBird 7 YellowFlower
#   8 Flow_dark 9 Honeywave 10 PastelHills 11 Shell
# Touch positions are device units 0..4095 on both axes (uitouch), i.e. px·4096/1280, py·4096/800.
#
#   calib_grid     no calibration, rotation 0: the grid
#   calib_plain    tap P = (160,400) px: photo 5 (GreenMeadow, row 2 column 1), the photo under P
#   calib_back     Escape: the same grid (not scrolled)
#   calib_target   tap Q = (480,400) px: photo 6 (LadyBird, column 2), the reference for ↓
#   calib_offset   --calibration "1 0 0.25 0 1 0" (x + a quarter of the width), tap P: photo 6,
#                  the screen of calib_target — not photo 5, which is under P
#   rot90_grid     --rotation 90: the portrait grid turned clockwise (host: gaps where a portrait
#                  layout has them, on the panel's left an empty strip)
#   rot90_tap      tap (1144,400) px = logical (400,136): photo 2 (Aqua, row 1 column 2)
#   rot180_grid    from the TOML config: rotation = 180 and calibration = [1,0,0.25,0,1,0]:
#                  calib_grid turned by 180°
#   rot180_tap     tap P: calibrated on the panel (480,400), then rotated: logical (800,400),
#                  photo 7 (YellowFlower, row 2 column 3). Without calibration it would be
#                  photo 8; calibration applied after the rotation would miss the grid.
#   rot270_grid    (pk.rot270=1 only) --rotation 270: rot90_grid turned by 180°
#   rot270_tap     tap (928,664) px = logical (136,928): photo 10 (PastelHills, row 4 column 1)
ready() { echo "@@READY $1"; read -t 60 ack; }
touch_cmd() { echo "$1" > "$PHOTOKIOSK_E2E_FIFO"; }
fail() { echo "@@CALIB_FAIL $1"; tail -n 30 /tmp/app.log; exit 1; }
alive() { kill -0 $APP 2>/dev/null || { tail -n 40 /tmp/app.log; echo "@@APP_DIED $1"; exit 1; }; }
logged() {   # wait (up to 60 s: a loaded host slows TCG) until the log has $1; print it
  i=0; while ! grep -q "$1" /tmp/app.log && [ $i -lt 600 ]; do sleep 0.1; i=$((i+1)); done
  grep -q "$1" /tmp/app.log || fail "not in the log: $1"; grep "$1" /tmp/app.log | tail -n 1 | sed "s/^.*\] /@@CALIB_LOG t=$(up) /"
}
up() { cut -d' ' -f1 /proc/uptime; }
tap_opens() {   # tap at $1 $2 (device units): the app must open photo $3 ("N of 11: …name")
  n=$(grep -c "opened photo" /tmp/app.log)
  touch_cmd "tap $1 $2"
  i=0; while [ $(grep -c "opened photo" /tmp/app.log) -le $n ] && [ $i -lt 600 ]; do sleep 0.1; i=$((i+1)); done
  got=$(grep "opened photo" /tmp/app.log | tail -n 1 | sed 's/^.*opened photo //')
  echo "@@CALIB_OPENED $got"
  case "$got" in *"$3"*) ;; *) fail "tap $1 $2 opened \"$got\", want photo $3";; esac
}
start_app() {   # a fresh start: no resume state (it would reopen the last photo or scroll position)
  rm -f /var/lib/photokiosk/resume
  echo "@@CALIB_START t=$(up) $*"
  : > /tmp/app.log   # emptied here: the background job's own redirection may come after the first grep
  /opt/pk/photokiosk run --display drm --input libinput --photos /opt/pk/photos "$@" >> /tmp/app.log 2>&1 & APP=$!
  logged "screen: DRM"
  logged "library: 11 photos"
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
P="512 2048"; Q="1536 2048"

start_app
ready calib_grid
tap_opens $P "5 of 11: /opt/pk/photos/mate-nature-GreenMeadow.jpg"; ready calib_plain
escape; ready calib_back
tap_opens $Q "6 of 11: /opt/pk/photos/mate-nature-LadyBird.jpg"; ready calib_target
stop_app plain

start_app --calibration "1 0 0.25 0 1 0"
logged "photokiosk-e2e-touchscreen: calibration matrix 1.0 0.0 0.25 0.0 1.0 0.0"
ready calib_offset_grid
tap_opens $P "6 of 11: /opt/pk/photos/mate-nature-LadyBird.jpg"; ready calib_offset
stop_app calibration

start_app --rotation 90
ready rot90_grid
tap_opens 3661 2048 "2 of 11: /opt/pk/photos/mate-nature-Aqua.jpg"; ready rot90_tap
stop_app rotation-90

printf '[display]\nrotation = 180\n[input]\ncalibration = [1, 0, 0.25, 0, 1, 0]\n' > /tmp/rot180.toml
start_app --config /tmp/rot180.toml
logged "photokiosk-e2e-touchscreen: calibration matrix 1.0 0.0 0.25 0.0 1.0 0.0"
ready rot180_grid
tap_opens $P "7 of 11: /opt/pk/photos/mate-nature-YellowFlower.jpg"; ready rot180_tap
stop_app rotation-180

# 270 only on request (E2E_APPEND=pk.rot270=1 e2e/run.sh): one more app run, ~9 s per display.
if grep -q "pk.rot270=1" /proc/cmdline; then
  start_app --rotation 270
  ready rot270_grid
  tap_opens 2970 3400 "10 of 11: /opt/pk/photos/plasma-PastelHills-3200x2000.jpg"; ready rot270_tap
  stop_app rotation-270
fi

echo "@@APP_EXIT 0"
