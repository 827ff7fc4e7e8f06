#!/bin/sh
# Guest side of the presence stage: a simulated GPIO chip (gpio-sim.ko, built for this kernel by
# build-gpio-sim.sh) whose line 3 this script pulls up (motion) and down (still), as a PIR module
# drives its output. photokiosk reads the line through /dev/gpiochipN with a 5 s no-motion timeout:
# the room is empty from the start (dark after 5 s), motion wakes the screen, a line held active
# keeps it on, 5 s after the motion ends it is dark again; then, with a schedule that is off now,
# motion does not wake it (the schedule wins at night). Times from /proc/uptime.
ready() { echo "@@READY $1"; read -t 600 ack; }
fail() { echo "@@PRESENCE_FAIL $1"
  if ! kill -0 $APP 2>/dev/null; then wait $APP; echo "@@PRESENCE_APP_GONE exit status $?"
    dmesg | grep -iE "photokiosk|segfault|trap|killed process" | tail -n 5 | sed 's/^/@@PRESENCE_KERNEL /'; fi
  echo "@@PRESENCE_APP_LOG $(wc -c < /tmp/app.log) bytes:"; tail -n 40 /tmp/app.log; exit 1; }
up() { cut -d' ' -f1 /proc/uptime; }
dpms() { cat /sys/class/drm/card*-*/dpms | head -n 1; }    # the kernel's view of the connector
wait_log() {   # wait_log TEXT TENTHS: until the app's log has TEXT; false when it never comes
  i=0; while ! grep -q "$1" /tmp/app.log && kill -0 $APP 2>/dev/null && [ $i -lt $2 ]; do sleep 0.1; i=$((i+1)); done
  grep -q "$1" /tmp/app.log
}
# dpms_is STATE WHAT: the connector reaches STATE within 10 s (the app logs before it sets DPMS, and
# a wake's modeset can take seconds under TCG on a loaded host: one fixed sleep was a flaky check)
dpms_is() {
  i=0; while [ "$(dpms)" != $1 ] && [ $i -lt 100 ]; do sleep 0.1; i=$((i+1)); done
  echo "@@PRESENCE_DPMS $(dpms) ($((i / 10)).$((i % 10)) s after the log line)"; [ "$(dpms)" = $1 ] || fail "$2"
}
secs() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.1f", b - a }'; }

mount -t configfs none /sys/kernel/config 2>/dev/null
insmod /opt/pk/gpio-sim.ko || fail "insmod gpio-sim.ko"
SIM=/sys/kernel/config/gpio-sim/pir
mkdir $SIM && mkdir $SIM/bank0 && echo 8 > $SIM/bank0/num_lines && echo 1 > $SIM/live || fail "gpio-sim: no chip"
CHIP=$(cat $SIM/bank0/chip_name)
PULL=/sys/devices/platform/$(cat $SIM/dev_name)/$CHIP/sim_gpio3/pull
[ -c /dev/$CHIP ] || fail "no /dev/$CHIP"
echo pull-down > $PULL || fail "cannot drive $PULL"
echo "@@PRESENCE_CHIP $CHIP line 3 ($PULL)"
still() { echo pull-down > $PULL; }
motion() { echo pull-up > $PULL; }

# 1. No schedule: the no-motion time counts from the start.
TZ=UTC /opt/pk/photokiosk run --display drm --input libinput --photos /opt/pk/photos --idle-timeout 3600 \
  --presence-chip $CHIP --presence-line 3 --presence-timeout 5 --log-level debug > /tmp/app.log 2>&1 &
APP=$!
wait_log "motion sensor: $CHIP line 3" 3000 || fail "the sensor was not opened"
attached=$(up)
grep "motion sensor" /tmp/app.log | sed 's/^/@@PRESENCE_LOG /'
wait_log "the room is empty" 600 || fail "no blank after the timeout from the start"
empty=$(up)
echo "@@PRESENCE_TIMING empty room dark $(secs $attached $empty) s after the sensor was attached (timeout 5 s)"
dpms_is Off "the connector's DPMS is not Off"
ready presence_empty
t=$(up); motion
wait_log "screen woken by motion" 300 || fail "motion did not wake the screen"
echo "@@PRESENCE_TIMING woken $(secs $t $(up)) s after the line went active"
dpms_is On "the connector's DPMS is not On"
ready presence_wake
sleep 7   # longer than the timeout, the line held active: still on
[ "$(dpms)" = On ] || fail "the screen blanked while the sensor saw motion"
[ $(grep -c "the room is empty" /tmp/app.log) = 1 ] || fail "blanked while the sensor saw motion"
t=$(up); still
i=0; while [ $(grep -c "the room is empty" /tmp/app.log) -lt 2 ] && [ $i -lt 300 ]; do sleep 0.1; i=$((i+1)); done
[ $(grep -c "the room is empty" /tmp/app.log) = 2 ] || fail "no blank 5 s after the motion ended"
echo "@@PRESENCE_TIMING dark again $(secs $t $(up)) s after the line went inactive (timeout 5 s)"
dpms_is Off "the connector's DPMS is not Off"
ready presence_blank
kill -TERM $APP; wait $APP; rc=$?
[ $rc = 0 ] || fail "photokiosk exit status $rc"

# 2. A schedule that is off now (as blank-driver.sh): motion does not wake the screen.
now=$(date +%s); start=$((now - 60))
cat > /tmp/night.toml <<TOML
[schedule]
blank = "dpms"
[[schedule.period]]
days = ["$(date -u -d "@$start" +%a | tr 'A-Z' 'a-z')"]
off = "$(date -u -d "@$start" +%H:%M)"
on = "$(date -u -d "@$((now + 7200))" +%H:%M)"
TOML
echo "@@PRESENCE_NIGHT_CONFIG $(tr '\n' ' ' < /tmp/night.toml)"
# Emptied here, not only by the background start's own `>`: that happens in the child, and a
# wait_log run before it found the first run's lines and then failed (CI, 2026-11-28: 1 in 8 runs)
: > /tmp/app.log
TZ=UTC /opt/pk/photokiosk run --display drm --input libinput --photos /opt/pk/photos --idle-timeout 3600 \
  --config /tmp/night.toml --presence-chip $CHIP --presence-line 3 --presence-timeout 5 --log-level debug > /tmp/app.log 2>&1 &
APP=$!
wait_log "motion sensor: $CHIP line 3" 3000 || fail "the sensor was not opened (night)"
wait_log "screen off" 300 || fail "the schedule did not blank the screen"
motion
wait_log "motion sensor: motion" 300 || fail "the motion did not reach the app (night)"
sleep 2
grep -q "screen woken by motion" /tmp/app.log && fail "motion woke the screen although the schedule has it off"
echo "@@PRESENCE_DPMS $(dpms)"; [ "$(dpms)" = Off ] || fail "the connector's DPMS is not Off at night"
ready presence_night
still
kill -TERM $APP; wait $APP; rc=$?
echo "@@PRESENCE_EXIT $rc"
[ $rc = 0 ] || fail "photokiosk exit status $rc"
