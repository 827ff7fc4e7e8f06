#!/bin/sh
# /init of the `powercut` stage's guest (the host side, which cuts the power, is e2e/powercut.py).
# The kiosk's state lives on /dev/vda (ext4, data=ordered, as on a frame's SD card): config,
# photos and uploads, settings, order, resume state and the thumbnail cache, under
# /mnt/state/photokiosk. The release photokiosk, its libraries and the new photos are on /dev/vdb
# (ext2, read-only), so the initramfs stays small and each of the 30 boots quick. The remote API
# listens on :8080 (QEMU's user network forwards a host port to it); the kiosk's log goes to the
# console, so the host keeps it although the VM dies without warning.
#   pk.phase=cycle  pk.batch=K: copy the batch K of new photos into the library while the kiosk
#                   runs (each one written under a hidden name, synced, renamed), until the cut.
#                   The host's `go reorder` (grid cycles) adds reorders: a long press on the first
#                   thumbnail, dragged onto the third (pk.drag=X0,Y0,X1,Y1 in uitouch's device
#                   units, from the grid's layout rule), lifted, and back, until the cut: each lift
#                   saves the order file.
#   pk.phase=writes: the write figures: sectors written to vda over a steady slideshow of cached
#                   photos, and over thumbnailing a batch of new photos (@@PC_WRITES lines).
export PATH=/bin:/sbin:/usr/bin
mount -t proc proc /proc; mount -t sysfs sys /sys; mount -t devtmpfs dev /dev
mkdir -p /tmp /run; mount -t tmpfs tmp /tmp
exec </dev/console >/dev/console 2>&1
up() { cut -d' ' -f1 /proc/uptime; }
written() { awk '{print $7}' /sys/block/vda/stat; }   # sectors written (512 bytes each)
PHASE=cycle BATCH=0 TOKEN= DRAG=
for w in $(cat /proc/cmdline); do case $w in
  pk.phase=*) PHASE=${w#*=};; pk.batch=*) BATCH=${w#*=};; pk.token=*) TOKEN=${w#*=};; pk.drag=*) DRAG=${w#*=};; esac; done
echo "@@BOOTED t=$(up) mode=powercut"
for ko in $(cat /lib/modules/$(uname -r)/load-order); do insmod /lib/modules/$(uname -r)/$ko 2>/dev/null; done
i=0; while { [ ! -e /dev/vdb ] || [ ! -e /dev/dri/card0 ] || ! ip link show eth0 >/dev/null 2>&1; } && [ $i -lt 50 ]; do sleep 0.1; i=$((i+1)); done
ip link set lo up; ip addr add 10.0.2.15/24 dev eth0; ip link set eth0 up
mkdir -p /mnt/state
# noatime, as Raspberry Pi OS mounts its root: reading a photo must not be a write
mount -t ext4 -o data=ordered,noatime /dev/vda /mnt/state || { echo "@@PC_FAIL cannot mount /dev/vda"; exit 1; }
mkdir -p /opt/pk; mount -t ext2 -o ro /dev/vdb /opt/pk || { echo "@@PC_FAIL cannot mount /dev/vdb"; exit 1; }
S=/mnt/state/photokiosk
echo "@@PC_MOUNTED t=$(up) written=$(written)"
# The touchscreen the reorders are made on (uinput). No udevd here: a udev database entry marks
# it initialised and a touchscreen, so libinput's udev backend (seat0) takes it.
mkfifo /tmp/touch.fifo; /opt/pk/uitouch /tmp/touch.fifo > /tmp/uitouch.out 2>&1 &
i=0; while ! grep -q '@@UINPUT ' /tmp/uitouch.out && [ $i -lt 50 ]; do sleep 0.1; i=$((i+1)); done
NODE=$(awk '$1=="@@UINPUT"{print $2}' /tmp/uitouch.out)
[ -n "$NODE" ] || { echo "@@PC_FAIL no uinput touchscreen: $(cat /tmp/uitouch.out)"; exit 1; }
mkdir -p /run/udev/data
printf 'I:%s\nE:ID_INPUT=1\nE:ID_INPUT_TOUCHSCREEN=1\nG:seat\n' "$(date +%s)000000" \
  > /run/udev/data/c$((0x$(stat -c %t $NODE))):$((0x$(stat -c %T $NODE)))
start_kiosk() {
  XDG_STATE_HOME=/mnt/state /opt/pk/lib/ld-linux-x86-64.so.2 --library-path /opt/pk/lib /opt/pk/photokiosk run --config $S/config.toml --display drm --input libinput \
    --photos $S/photos --cache-dir $S/cache --remote-listen 0.0.0.0:8080 --remote-token "$TOKEN" --log-level info >/dev/console 2>&1 &
  echo "@@PC_STARTED t=$(up)"
}
# copy_batch DIR: each photo under a hidden name, synced, renamed into the library, folder synced
copy_batch() {
  for f in "$1"/*.jpg; do
    n=$(basename "$f")
    cp "$f" "$S/photos/.incoming-$n" && sync "$S/photos/.incoming-$n" && mv "$S/photos/.incoming-$n" "$S/photos/$n" \
      && sync "$S/photos" && echo "@@PC_COPIED $n t=$(up)"
  done
}
# reorder_loop: the first thumbnail held (past the 0.5 s long press), dragged in steps onto the
# third, lifted (the kiosk saves its order), then the same back, until the power goes. Each lift is
# one @@PC_REORDER line; the host checks the order file the cut leaves.
reorder_loop() {
  set -- $(echo "$DRAG" | tr , ' ')
  x0=$1 y=$2 x1=$3 n=0
  while :; do
    if [ $((n % 2)) = 0 ]; then a=$x0 b=$x1; else a=$x1 b=$x0; fi
    printf 'down %s %s\nsleep 900\nmove %s %s\nsleep 50\nmove %s %s\nsleep 50\nmove %s %s\nsleep 300\nup\n' \
      $a $y $(( (3 * a + b) / 4 )) $y $(( (a + 3 * b) / 4 )) $y $b $y > /tmp/touch.fifo
    n=$((n + 1)); echo "@@PC_REORDER $n t=$(up)"; sleep 2.6   # uitouch plays it in 1.3 s; the host uploads after it
  done
}
case $PHASE in
  cycle)
    start_kiosk
    read -t 300 go     # the host saw the first photo on screen: now the work it cuts into
    [ "$go" = "go reorder" ] && [ -n "$DRAG" ] && reorder_loop &
    [ -d /opt/pk/batches/$BATCH ] && copy_batch /opt/pk/batches/$BATCH
    echo "@@PC_BATCH_DONE t=$(up)"
    sleep 600
    ;;
  writes)
    start_kiosk
    read -t 300 go     # the slideshow of already-cached photos runs (the host turned it on)
    sync; w0=$(written); t0=$(up); sleep 45; w1=$(written); t1=$(up)
    echo "@@PC_WRITES slideshow sectors=$((w1 - w0)) seconds=$(awk -v a=$t0 -v b=$t1 'BEGIN{printf "%.0f", b-a}')"
    read -t 300 go     # the grid again (slideshow off): new photos appear on it and are thumbnailed
    c0=$(ls $S/cache | wc -l); sync; w0=$(written)
    bytes=$(cat /opt/pk/batches/writes/*.jpg | wc -c); count=$(ls /opt/pk/batches/writes | wc -l)
    copy_batch /opt/pk/batches/writes >/dev/null
    sleep 25; sync; w1=$(written); c1=$(ls $S/cache | wc -l)
    echo "@@PC_WRITES thumbnails photos=$count photo_bytes=$bytes sectors=$((w1 - w0)) cache_entries=$((c1 - c0))"
    echo "@@PC_DONE"
    sleep 600
    ;;
esac
