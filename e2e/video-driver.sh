#!/bin/sh
# Guest side of the `video` stage (issue 35): a 512 MB guest (qemu -m 512) runs the real
# photokiosk on DRM + libinput at 1920x1200 from a disk as on a frame's SD card (photokiosk, its
# libraries, and GStreamer's libraries and the plugins a clip needs under /mnt/disk/gst; see
# run.sh). The album opens on the first of three big photos and pages through them (the album's
# own memory peak), then to a 1080p30 H.264 clip, which plays: the host takes two screendumps a
# second apart and checks them against the clip's decoded frames (video-clip.py); a tap pauses it.
# Here: the clip played (its log line), no OOM kill, no clip failed, and the memory the clip added
# over the album's peak is held to issue 35's 40 MB (@@VID_MEMORY).
# SIGTERM ends it with status 0.
ready() { echo "@@READY $1"; read -t 300 ack; }
touch_cmd() { echo "$1" > "$PHOTOKIOSK_E2E_FIFO"; }
fail() { echo "@@VID_FAIL $1"; tail -n 30 /tmp/app.log; exit 1; }
alive() { kill -0 $APP 2>/dev/null || { dmesg | tail -n 30; tail -n 40 /tmp/app.log; echo "@@APP_DIED $1"; exit 1; }; }
hwm() { awk '/^VmHWM/{print $2}' /proc/$APP/status; }
wait_log() {   # wait_log PATTERN SECONDS
  i=0; while ! grep -q "$1" /tmp/app.log && [ $i -lt $(($2 * 10)) ]; do sleep 0.1; i=$((i+1)); done
  grep -q "$1" /tmp/app.log
}

mkdir -p /mnt/disk
i=0; while [ ! -e /dev/vda ] && [ $i -lt 50 ]; do sleep 0.1; i=$((i+1)); done
mount -t ext2 /dev/vda /mnt/disk || fail "cannot mount the disk /dev/vda"
echo "@@VID_GUEST $(grep MemTotal /proc/meminfo | tr -s ' ') photos $(ls /mnt/disk/photos | wc -l) plugins $(ls /mnt/disk/gst | wc -l)"
# GStreamer finds its plugins on the disk and keeps its registry in RAM; the libraries the
# plugins need come through the disk's ld.so --library-path like photokiosk's own.
export GST_PLUGIN_SYSTEM_PATH=/mnt/disk/gst GST_REGISTRY=/tmp/gst-registry.bin
/mnt/disk/lib/ld-linux-x86-64.so.2 --library-path /mnt/disk/lib /mnt/disk/photokiosk run --display drm --input libinput \
  --mode 1920x1200 --photos /mnt/disk/photos --cache-dir /mnt/disk/cache > /tmp/app.log 2>&1 &
APP=$!
sleep 3
alive start
ready vid_grid                                           # the grid, the clip's poster among them
touch_cmd "tap 213 341"; ready vid_page_0                # (100,100) px: the first photo opens
touch_cmd "swipe 3200 2048 1000 2048 8"; ready vid_page_1
touch_cmd "swipe 3200 2048 1000 2048 8"; ready vid_page_2
alive photos
ALBUM=$(hwm)
echo "@@VID_ALBUM VmHWM ${ALBUM} kB after three big photos"
touch_cmd "swipe 3200 2048 1000 2048 8"                  # to the clip: it plays once the page rests
wait_log "clip playing" 120 || fail "the clip did not start playing within 120 s: $(grep -i clip /tmp/app.log | tail -n 3)"
grep "clip playing" /tmp/app.log | sed 's/^.*\] /@@VID_LOG /'
sleep 4                                                  # the chrome fades (1.5 s + 0.4 s)
alive "clip playing"
echo "@@VID_PLAYING VmHWM $(hwm) kB, VmRSS $(awk '/^VmRSS/{print $2}' /proc/$APP/status) kB"
ready vid_clip_a
sleep 1
ready vid_clip_b
sleep 4
alive clip
CLIP=$(hwm)
echo "@@VID_MEMORY album VmHWM ${ALBUM} kB, with the clip playing ${CLIP} kB: +$((CLIP - ALBUM)) kB (issue 35's target, this stage's bound: 40960 kB)"
touch_cmd "tap 2048 2048"; sleep 2                       # a tap pauses (after the double-tap wait)
ready vid_paused
alive pause
if dmesg | grep -qiE "out of memory|oom-kill|invoked oom-killer"; then dmesg | grep -iE -A3 "oom" | tail -n 20; fail "OOM in the kernel log"; fi
if grep -q "cannot play clip" /tmp/app.log; then fail "$(grep 'cannot play clip' /tmp/app.log | head -n 1)"; fi
# Issue 35's target is the bound: at most 40 MB over the album's peak. With the frames kept in the decoder's YUV (no
# BGRx copies) QEMU runs gave +17 to +22 MB; with BGRx frames they gave +32 to +48 MB.
[ $((CLIP - ALBUM)) -le 40960 ] || fail "the clip added $((CLIP - ALBUM)) kB over the album's peak (the bound is 40960 kB)"
kill -TERM $APP; wait $APP; rc=$?
tail -n 15 /tmp/app.log
echo "@@APP_EXIT $rc"
[ $rc = 0 ]
