#!/bin/sh
# The unit stage's read-only root (issue 33 item 4), set up before the kiosk starts: / mounted
# read-only, as a frame's read-only image (or raspi-config's overlay with the lower card) leaves
# it; the kiosk's state folder on a file system of its own that can be written (a tmpfs here; on
# a frame an SD card partition or a USB disk), and /tmp, /var/tmp on tmpfs (systemd's PrivateTmp=
# makes the service's own /tmp there). Nothing else is writable for the kiosk.
set -eu
mkdir -p /run/pk-state-seed && cp -a /var/lib/photokiosk/. /run/pk-state-seed/
mount -t tmpfs -o mode=0755,size=256m photokiosk-state /var/lib/photokiosk
cp -a /run/pk-state-seed/. /var/lib/photokiosk/ && rm -rf /run/pk-state-seed
chown photokiosk:photokiosk /var/lib/photokiosk
mount -t tmpfs -o mode=1777 tmpfs /tmp
mount -t tmpfs -o mode=1777 tmpfs /var/tmp
mount -o remount,ro /
echo "read-only root: $(grep ' / ' /proc/mounts | head -n 1)"
