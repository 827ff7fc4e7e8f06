#!/bin/sh
# Guest side of the `panels` stage: for each run in /opt/pk/panels/runs ("RUN ROTATION"), a real
# touchscreen's report descriptor becomes a HID device through /dev/uhid (uhidpanel), the kernel's
# hid-multitouch binds it, `photokiosk touch-test --report` measures it on DRM + libinput while the
# helper plays the reports e2e/panels.py built on the host, and the app's report goes to the
# console as "@@PANEL_OUT RUN line" (checked on the host: panels.py check).
#   @@PANEL_DEVICE RUN hid=… input=… quirks=0x… node=…   what the kernel made of the descriptor
#   @@PANEL_FAIL RUN why                                  this run could not be measured
P=/opt/pk/panels
up() { cut -d' ' -f1 /proc/uptime; }
rc=0
fail() { echo "@@PANEL_FAIL $RUN $1"; rc=1; }
wait_for() {   # wait_for FILE TEXT [TENTHS]: until FILE has TEXT
  i=0; while ! grep -q "$2" "$1" 2>/dev/null && [ $i -lt ${3:-200} ]; do sleep 0.1; i=$((i+1)); done
  grep -q "$2" "$1" 2>/dev/null
}
# The HID device with this vendor and product (sysfs name BUS:VID:PID.N), once a driver has it.
hid_device() {
  for d in /sys/bus/hid/devices/*; do
    case "$(basename $d)" in *$(printf '%04X:%04X' $VID $PID).*) [ -e $d/driver ] && echo $d;; esac
  done | tail -n 1
}
# Its touchscreen input (hid-multitouch may add others, e.g. a pen): the one with multitouch axes
# (ABS_MT_POSITION_X is bit 53 of the abs capability bitmap: 14 hex digits in its last word).
touch_input() {
  for i in $1/input/input*; do
    abs=$(cat $i/capabilities/abs); last=${abs##* }
    [ ${#last} -ge 14 ] && { ls -d $i/event* | head -n 1; return; }
  done
}

while read RUN ROT; do
  . $P/$RUN.dev
  echo "@@PANEL_START $RUN t=$(up) $NAME rotation $ROT"
  rm -f /tmp/panel.fifo; mkfifo /tmp/panel.fifo; : > /tmp/uhid.out
  /opt/pk/uhidpanel $P/$RUN.rdesc "$NAME" $BUS $VID $PID $P/$RUN.features /tmp/panel.fifo > /tmp/uhid.out 2>&1 &
  HELPER=$!
  i=0; while [ -z "$(hid_device)" ] && [ $i -lt 100 ]; do sleep 0.1; i=$((i+1)); done
  HID=$(hid_device)
  if [ -z "$HID" ]; then
    fail "no driver bound the HID device: $(cat /tmp/uhid.out | tr '\n' ' ') $(dmesg | grep -i hid | tail -n 3 | tr '\n' ' ')"
    echo quit > /tmp/panel.fifo; wait $HELPER; continue
  fi
  udevadm settle -t 10 2>/dev/null
  EV=$(touch_input $HID)
  NODE=/dev/input/$(basename "$EV")
  echo "@@PANEL_DEVICE $RUN hid=$(basename $HID) driver=$(basename $(readlink $HID/driver)) input=\"$(cat $EV/device/name 2>/dev/null)\" quirks=$(cat $HID/quirks 2>/dev/null || echo none) node=$NODE requests=\"$(grep '@@UHID_[GS]ET' /tmp/uhid.out | sed 's/@@UHID_//' | tr '\n' ' ')\""
  if [ -z "$EV" ]; then fail "no touchscreen input under $HID"; echo quit > /tmp/panel.fifo; wait $HELPER; continue; fi

  : > /tmp/tt.out; : > /tmp/tt.log
  /opt/pk/photokiosk touch-test --display drm --input libinput --input-device $NODE --rotation $ROT --report --timeout 90 \
    > /tmp/tt.out 2> /tmp/tt.log & APP=$!
  if ! wait_for /tmp/tt.log "input device added"; then
    fail "touch-test did not add $NODE: $(tail -n 5 /tmp/tt.log | tr '\n' ' ')"
  else
    echo "play $P/$RUN.play" > /tmp/panel.fifo
    wait_for /tmp/uhid.out "@@UHID_PLAYED" 600 || fail "the reports were not played in 60 s"
    sleep 0.5   # the last frame through libinput and the app
  fi
  kill -TERM $APP 2>/dev/null; wait $APP; code=$?
  [ $code = 0 ] || fail "touch-test exited with $code: $(tail -n 5 /tmp/tt.log | tr '\n' ' ')"
  sed "s/^/@@PANEL_OUT $RUN /" /tmp/tt.out
  echo "@@PANEL_END $RUN t=$(up)"
  echo quit > /tmp/panel.fifo; wait $HELPER
done < $P/runs
echo "@@APP_EXIT $rc"
exit $rc
