#!/bin/sh
# Guest side of the `smallboard` stage: a 256 MB guest (qemu -m 256) runs the real photokiosk on
# DRM + libinput at 1920x1080 with the photos smallboard-photos.py generated (5120x2880
# progressive ones, a 5640x3172 q100 one, a 50-megapixel baseline one). The photos, photokiosk
# and its libraries are on a disk as on a frame's SD card (/dev/vda, ext2; started through the
# disk's own ld.so), not in the initramfs, which is RAM; the caches are written there too.
# A tap opens the first photo, nine swipes page through the album, two double taps zoom the
# last photo to 1:1. The host checks each page's screendump (its photo's colour at the centre,
# settled); here: the app still runs, the kernel log has no OOM kill, no photo failed to show,
# and SIGTERM ends it with status 0. Peak memory goes to the console (@@SB_MEMORY).
ready() { echo "@@READY $1"; read -t 300 ack; }
touch_cmd() { echo "$1" > "$PHOTOKIOSK_E2E_FIFO"; }
fail() { echo "@@SB_FAIL $1"; tail -n 30 /tmp/app.log; exit 1; }
alive() { kill -0 $APP 2>/dev/null || { dmesg | tail -n 30; tail -n 40 /tmp/app.log; echo "@@APP_DIED $1"; exit 1; }; }
memory() { awk -v tag="$1" '/^Vm(HWM|RSS)/{v = v " " $1 $2 "kB"} END {print "@@SB_MEMORY " tag v}' /proc/$APP/status; }

mkdir -p /mnt/disk
i=0; while [ ! -e /dev/vda ] && [ $i -lt 50 ]; do sleep 0.1; i=$((i+1)); done
mount -t ext2 /dev/vda /mnt/disk || fail "cannot mount the photo disk /dev/vda"
echo "@@SB_GUEST $(grep MemTotal /proc/meminfo | tr -s ' ') photos $(ls /mnt/disk/photos | wc -l)"
/mnt/disk/lib/ld-linux-x86-64.so.2 --library-path /mnt/disk/lib /mnt/disk/photokiosk run --display drm --input libinput \
  --mode 1920x1080 --photos /mnt/disk/photos --cache-dir /mnt/disk/cache > /tmp/app.log 2>&1 &
APP=$!
sleep 3
alive start
ready sb_grid                                            # the grid, every visible thumbnail in
touch_cmd "tap 213 379"; ready sb_page_0                 # (100,100) px: the first photo opens
n=1
while [ $n -lt 10 ]; do
  alive "page $n"
  touch_cmd "swipe 3200 2048 1000 2048 8"; ready sb_page_$n   # a flick to the next photo
  n=$((n+1))
done
memory album
touch_cmd "tap 2048 2048"; sleep 0.15; touch_cmd "tap 2048 2048"; sleep 2    # double tap: 2x
touch_cmd "tap 2048 2048"; sleep 0.15; touch_cmd "tap 2048 2048"             # and to 1:1
ready sb_zoom
alive zoom
memory zoom
if dmesg | grep -qiE "out of memory|oom-kill|invoked oom-killer"; then dmesg | grep -iE -A3 "oom" | tail -n 20; fail "OOM in the kernel log"; fi
if grep -q "cannot show photo" /tmp/app.log; then fail "a photo was not shown: $(grep 'cannot show photo' /tmp/app.log | head -n 1)"; fi
grep -E "memory:|opened photo" /tmp/app.log | sed 's/^.*\] /@@SB_LOG /'
kill -TERM $APP; wait $APP; rc=$?
tail -n 20 /tmp/app.log
echo "@@APP_EXIT $rc"
[ $rc = 0 ]
