#!/bin/sh
# /init of the `storage` stage's guest (issue 33 item 2; the host side is e2e/storage.py).
# The kiosk's state disk goes through device-mapper: /dev/mapper/state is a `linear` table over
# the disk while it works and a `flakey ... error_writes` table while it fails (every write EIO,
# reads fine), switched on the host's word over the console. Two disks, two scenarios
# (docs/failing-storage.md):
#   /dev/vda  ext4 WITHOUT a journal, mounted errors=continue: a failed write is an error for
#             that write only, and the same mount takes writes again when the device recovers;
#   /dev/vdc  ext4 WITH its journal (as a frame's card): the first failed journal commit aborts
#             the journal and ext4 refuses every write after it (EROFS) until it is mounted
#             again, whatever the device does meanwhile.
# The release photokiosk and its libraries are on /dev/vdb (the powercut stage's read-only
# program disk); dmsetup and its libraries are in this initramfs (/opt/pk/dmsetup).
# Console commands, one a line: start A|B, fail, recover, remount, kernel, stop.
export PATH=/bin:/sbin:/usr/bin DM_DISABLE_UDEV=1
mount -t proc proc /proc; mount -t sysfs sys /sys; mount -t devtmpfs dev /dev
mkdir -p /tmp /run; mount -t tmpfs tmp /tmp
exec </dev/console >/dev/console 2>&1
up() { cut -d' ' -f1 /proc/uptime; }
TOKEN=
for w in $(cat /proc/cmdline); do case $w in pk.token=*) TOKEN=${w#*=};; esac; done
echo "@@BOOTED t=$(up) mode=storage"
for ko in $(cat /lib/modules/$(uname -r)/load-order); do insmod /lib/modules/$(uname -r)/$ko 2>/dev/null; done
i=0; while { [ ! -e /dev/vdc ] || [ ! -e /dev/dri/card0 ] || ! ip link show eth0 >/dev/null 2>&1; } && [ $i -lt 50 ]; do sleep 0.1; i=$((i+1)); done
ip link set lo up; ip addr add 10.0.2.15/24 dev eth0; ip link set eth0 up
mkdir -p /mnt/state /mnt/prog
mount -t ext2 -o ro /dev/vdb /mnt/prog || { echo "@@ST_FAIL cannot mount /dev/vdb"; exit 1; }
DM=/opt/pk/dmsetup
S=/mnt/state/photokiosk
DISK= KIOSK=
table() {   # table linear|flakey: the state device's live table, swapped without flushing
  sectors=$(cat /sys/block/${DISK#/dev/}/size)
  case $1 in
    linear) t="0 $sectors linear $DISK 0";;
    # up 0 s, down 1 s: always down; error_writes: every write fails with EIO, reads pass
    flakey) t="0 $sectors flakey $DISK 0 0 1 1 error_writes";;
  esac
  if [ -e /dev/mapper/state ]; then
    $DM suspend --noflush --nolockfs state && $DM load state --table "$t" && $DM resume state
  else
    $DM create state --noudevsync --table "$t"
  fi
}
mount_state() {
  # errors=continue on the journal-less disk: a failed metadata write is logged, not fatal
  mount -t ext4 -o noatime${1:+,$1} /dev/mapper/state /mnt/state \
    && echo "@@ST_MOUNTED t=$(up) $(grep ' /mnt/state ' /proc/mounts | cut -d' ' -f4)"
}
start_kiosk() {
  XDG_STATE_HOME=/mnt/state /mnt/prog/lib/ld-linux-x86-64.so.2 --library-path /mnt/prog/lib /mnt/prog/photokiosk run \
    --config $S/config.toml --display drm --input none --photos $S/photos --cache-dir $S/cache \
    --remote-listen 0.0.0.0:8080 --remote-token "$TOKEN" --log-level info >/dev/console 2>&1 &
  KIOSK=$!
  echo "@@ST_STARTED t=$(up)"
}
stop_kiosk() {
  [ -n "$KIOSK" ] && kill $KIOSK 2>/dev/null
  i=0; while [ -n "$KIOSK" ] && kill -0 $KIOSK 2>/dev/null && [ $i -lt 100 ]; do sleep 0.1; i=$((i+1)); done
  [ -n "$KIOSK" ] && kill -9 $KIOSK 2>/dev/null; KIOSK=
}
while read -r cmd arg; do
  case $cmd in
    start)   # start A|B: the journal-less or the journaled disk, healthy, and the kiosk on it
      stop_kiosk; umount /mnt/state 2>/dev/null; [ -e /dev/mapper/state ] && $DM remove state
      if [ "$arg" = A ]; then DISK=/dev/vda; OPTS=errors=continue; else DISK=/dev/vdc; OPTS=; fi
      table linear && mount_state $OPTS || { echo "@@ST_FAIL cannot mount $DISK"; continue; }
      start_kiosk;;
    fail) table flakey && echo "@@ST_FAILING t=$(up)";;
    recover) table linear && echo "@@ST_RECOVERED t=$(up) $(grep ' /mnt/state ' /proc/mounts | cut -d' ' -f4)";;
    remount)   # what the next boot does: the kiosk stops, the file system is mounted afresh
      stop_kiosk; umount /mnt/state || echo "@@ST_FAIL umount"
      mount_state $OPTS || { echo "@@ST_FAIL cannot mount $DISK again"; continue; }
      start_kiosk;;
    kernel)   # what ext4, jbd2 and the block layer said, for the host to print
      dmesg | grep -E 'EXT4-fs|jbd2|JBD2|I/O error|flakey|device-mapper' | tail -n 12 | sed 's/^/@@ST_KERNEL /'
      echo "@@ST_KERNEL_END $(grep ' /mnt/state ' /proc/mounts | cut -d' ' -f4)";;
    stop) stop_kiosk; sync; umount /mnt/state; $DM remove state; echo "@@ST_STOPPED t=$(up)";;
  esac
done
sleep 600
