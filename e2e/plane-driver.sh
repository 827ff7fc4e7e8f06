#!/bin/sh
# Guest side of the `plane` stage (issue 35: a playing clip's frames go on an overlay plane where
# the driver allows it). The card is vkms with an overlay plane (the init loaded vkms.ko with
# enable_overlay=1; no bochs or virtio-gpu module in this initramfs, so it is the only card); the
# disk is the video stage's (photokiosk, its libraries, GStreamer, the photos and the 1080p clip).
# photokiosk runs at 1920x1200 as in the video stage; a tap on the clip's tile opens it and it
# plays; its log must say "video plane: ..." with a rectangle. QEMU cannot show vkms's planes, so
# planeshot composes the screen from them here, twice a second apart; the PPMs go to the second
# disk (/dev/vdb) at fixed offsets and the host reads each one there when its READY comes (the
# video stage's pixel rules, and the overlay's rectangle and framebuffer from the "@@PLANES" line).
# A kiosk that does not use the plane fails the stage, but the shots are still taken and checked:
# they show what the primary plane holds instead.
# Then a tap pauses the clip and brings the chrome over it: the plane must go off, and come back
# once the chrome has faded.
ready() { echo "@@READY $1"; read -t 300 ack; }
touch_cmd() { echo "$1" > "$PHOTOKIOSK_E2E_FIFO"; }
fail() { echo "@@PLANE_FAIL $1"; [ -f /tmp/app.log ] && tail -n 30 /tmp/app.log; exit 1; }
PROBLEM=""
problem() { echo "@@PLANE_FAIL $1"; PROBLEM="$1"; }    # the stage fails, the shots are still taken
alive() { kill -0 $APP 2>/dev/null || { dmesg | tail -n 30; tail -n 40 /tmp/app.log; echo "@@APP_DIED $1"; exit 1; }; }
up() { cut -d' ' -f1 /proc/uptime; }
wait_log() {   # wait_log PATTERN SECONDS
  i=0; while ! grep -q "$1" /tmp/app.log && [ $i -lt $(($2 * 10)) ]; do sleep 0.1; i=$((i+1)); done
  grep -q "$1" /tmp/app.log
}
. /opt/pk/plane.env                                      # CLIP, CLIP_TAP (plane.py prepare)

CARDS=$(ls /dev/dri | grep '^card')
[ "$CARDS" = card0 ] || fail "vkms must be the only card, /dev/dri has: $(ls /dev/dri | tr '\n' ' ')"
grep -q '^vkms ' /proc/modules || fail "vkms is not loaded: $(dmesg | grep -i vkms | tail -n 3)"
/opt/pk/planeshot list || fail "the card has no overlay plane that takes XRGB8888 (vkms loaded without enable_overlay=1?)"
# planeshot itself first: its own patterns on the primary and an overlay plane (offset CRTC and SRC
# rectangles) must come back pixel for pixel, or its shots of the kiosk would prove nothing
/opt/pk/planeshot selftest 1920x1200 || fail "planeshot cannot compose vkms's planes (its self-test failed)"
mkdir -p /mnt/disk
i=0; while { [ ! -e /dev/vda ] || [ ! -e /dev/vdb ]; } && [ $i -lt 50 ]; do sleep 0.1; i=$((i+1)); done
[ -b /dev/vdb ] || fail "no shots disk /dev/vdb"
mount -t ext2 /dev/vda /mnt/disk || fail "cannot mount the disk /dev/vda"
[ -f /mnt/disk/photos/$CLIP ] || fail "no $CLIP on the disk"
export GST_PLUGIN_SYSTEM_PATH=/mnt/disk/gst GST_REGISTRY=/tmp/gst-registry.bin
/mnt/disk/lib/ld-linux-x86-64.so.2 --library-path /mnt/disk/lib /mnt/disk/photokiosk run --display drm --input libinput \
  --mode 1920x1200 --photos /mnt/disk/photos --cache-dir /mnt/disk/cache > /tmp/app.log 2>&1 &
APP=$!
wait_log "library: " 300 || { alive start; fail "no library line in the kiosk's log within 300 s"; }
alive start
# A tap on the clip's tile opens the album on it ("opened photo 4 of 5: …clip…"). One that came
# before the grid took input is tapped again (seen: a tap right at the "library:" line did nothing,
# one 2 s later worked); once the album is open no tap follows (it would pause the clip).
taps=0
sleep 2
while ! grep -q "opened photo .*$CLIP" /tmp/app.log && [ $taps -lt 10 ]; do
  touch_cmd "tap $CLIP_TAP"; taps=$((taps + 1))
  wait_log "opened photo .*$CLIP" 10
done
echo "@@PLANE_TAPS $taps tap(s) on the clip's tile ($CLIP_TAP in uitouch's units)"
wait_log "opened photo .*$CLIP" 1 || fail "the album did not open on the clip after $taps taps on its tile: $(grep -iE 'opened' /tmp/app.log | tail -n 3)"
wait_log "clip playing: .*$CLIP" 120 || fail "the clip did not start playing within 120 s of a tap on its tile: $(grep -iE 'opened|clip' /tmp/app.log | tail -n 3)"
started=$(up)
grep "clip playing" /tmp/app.log | sed 's/^.*\] /@@PLANE_LOG /'
# the kiosk's own word that the clip is on a plane: "video plane: plane N (FMT) shows the clip at
# WxH+X+Y" (not "video plane: off (...)", its line when it stops using one)
plane_line() { grep "video plane: " /tmp/app.log | grep -v "video plane: off" | grep -E '[0-9]+x[0-9]+\+[0-9]+\+[0-9]+' | head -n 1; }
end=$(( $(cut -d. -f1 /proc/uptime) + 30 ))              # by the clock: each look costs TCG time too
while [ -z "$(plane_line)" ] && [ $(cut -d. -f1 /proc/uptime) -lt $end ]; do sleep 0.2; done
if [ -n "$(plane_line)" ]; then
  grep "video plane:" /tmp/app.log | sed 's/^.*\] /@@PLANE_LOG /'
  LOGGED=$(plane_line | grep -oE '[0-9]+x[0-9]+\+[0-9]+\+[0-9]+' | tail -n 1)
else
  problem "the kiosk did not use the overlay plane: no \"video plane: ...\" line with a rectangle in its log 30 s after \"clip playing\""
fi
sleep 4                                                  # the chrome fades (1.5 s + 0.4 s), as in the video stage
alive "clip playing"
# Both shots first, a second apart; then each goes to the host in turn (the handshake's own
# time must not stretch the second between them). planeshot's exit status 2: the overlay plane is
# off and the shot is the primary plane alone (the host's overlay rule then fails the stage).
# The second between them is spent watching the overlay's FB_ID (the framebuffers that went on it).
for s in a b; do
  [ $s = b ] && { /opt/pk/planeshot watch 1000 > /tmp/fb-ids 2>&1 || fail "planeshot watch: $(cat /tmp/fb-ids)"; }
  /opt/pk/planeshot shot /tmp/shot-$s.ppm > /tmp/shot-$s.planes 2>/tmp/shot-$s.err; rc=$?
  cat /tmp/shot-$s.err
  [ $rc = 0 ] || [ $rc = 2 ] || fail "planeshot failed (status $rc): $(cat /tmp/shot-$s.err)"
  echo "@@PLANE_SHOT $s at $(up) s, $(awk -v a=$started -v b=$(up) 'BEGIN { printf "%.1f", b - a }') s after \"clip playing\" was seen"
done
alive shots
offset=0
for s in a b; do
  [ $s = b ] && cat /tmp/fb-ids                         # "@@PLANE_FB_IDS": what the plane showed between the shots
  cat /tmp/shot-$s.planes                                # the "@@PLANES" line the host checks with this shot
  dd if=/tmp/shot-$s.ppm of=/dev/vdb bs=1M seek=$offset conv=fsync 2>/dev/null || fail "cannot write the shot to /dev/vdb"
  ready "plane_clip_$s shot@$offset"
  offset=$((offset + 8))                                 # 8 MiB a slot: a 1920x1200 PPM is 6.6 MiB
done
# the rectangle the kiosk logged is the one the plane shows
if [ -n "${LOGGED:-}" ]; then
  SHOWN=$(sed -n 's/.*| overlay plane [0-9]* fb [0-9]* [A-Z0-9]* [0-9]*x[0-9]* at \([^ ]*\) .*/\1/p' /tmp/shot-a.planes)
  echo "@@PLANE_RECT the kiosk logged $LOGGED, the overlay plane shows ${SHOWN:-nothing}"
  [ "$LOGGED" = "$SHOWN" ] || problem "the kiosk logged the clip at $LOGGED but the overlay plane shows ${SHOWN:-nothing}"
fi
grep "video plane:" /tmp/app.log | sed 's/^.*\] /@@PLANE_LOG_AFTER_SHOTS /'   # did it let the plane go meanwhile?
# A tap on the clip pauses it and brings the chrome back over it: the plane must go off (a
# non-blocking atomic commit that disables it, which the kernel must take), the paused frame be
# drawn into the screen's buffer, and once the chrome has faded again the plane must come back.
ons() { grep -c "video plane: plane .* shows the clip at" /tmp/app.log; }
before=$(ons)
touch_cmd "tap 2048 2048"
wait_log "video plane: off" 20 || problem "a tap on the clip (the chrome over it) did not take it off the plane: $(grep 'video plane' /tmp/app.log | tail -n 2)"
end=$(( $(cut -d. -f1 /proc/uptime) + 20 ))
while [ "$(ons)" -le "$before" ] && [ $(cut -d. -f1 /proc/uptime) -lt $end ]; do sleep 0.2; done
[ "$(ons)" -gt "$before" ] || problem "the paused clip did not go back on the plane once the chrome had faded: $(grep 'video plane' /tmp/app.log | tail -n 2)"
grep "video plane:" /tmp/app.log | tail -n 2 | sed 's/^.*\] /@@PLANE_LOG_AFTER_TAP /'
if grep -q "video plane: .* cannot be used" /tmp/app.log; then problem "$(grep 'cannot be used' /tmp/app.log | head -n 1)"; fi
if dmesg | grep -qiE "out of memory|oom-kill|invoked oom-killer"; then fail "OOM in the kernel log"; fi
if grep -q "cannot play clip" /tmp/app.log; then fail "$(grep 'cannot play clip' /tmp/app.log | head -n 1)"; fi
kill -TERM $APP; wait $APP; rc=$?
tail -n 12 /tmp/app.log
echo "@@APP_EXIT $rc"
[ -z "$PROBLEM" ] || { echo "@@PLANE_FAIL $PROBLEM"; exit 1; }
[ $rc = 0 ]
