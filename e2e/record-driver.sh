#!/bin/bash
# Touch lab end to end: record the app-stage walk (swipe, tap, Escape) in the VM with
# `photokiosk record` on DRM + libinput (uinput touches), then replay that recording headless on
# the host with `photokiosk replay --fast` and check it ends on the same screen as the VM did.
#   e2e/record-driver.sh             # host side (needs the kernel cache of one e2e/run.sh)
#   DISPLAYS=virtio e2e/record-driver.sh
# The guest part below is written as /opt/pk/app-driver.sh, which the init runs in its app mode.
set -euo pipefail

ROOT=$(cd "$(dirname "$0")/.." && pwd)
E2E=$ROOT/e2e
CACHE=${PHOTOKIOSK_E2E_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/photokiosk-e2e}
OUT=${PHOTOKIOSK_E2E_OUT:-$ROOT/.build/e2e}/record
DISPLAYS=${DISPLAYS:-bochs}
KROOT=$CACHE/kernel
[ -f "$KROOT/vmlinux" ] || { echo "record: SKIP — no kernel in $CACHE (run e2e/run.sh once)"; exit 0; }
command -v qemu-system-x86_64 >/dev/null || { echo "record: SKIP — no qemu-system-x86_64"; exit 0; }
[ -x "$CACHE/udev-tree/bin/udevadm" ] && export EXTRA_TREE=$CACHE/udev-tree
mkdir -p "$OUT/guest"

cd "$ROOT"
swift build --product photokiosk > "$OUT/build.log" 2>&1 || { tail -30 "$OUT/build.log"; echo "record: FAIL (build)"; exit 1; }
BIN=$(swift build --show-bin-path)
gcc -O2 -Wall -static -o "$OUT/uitouch" "$E2E/src/uitouch.c"
rm -rf "$OUT/photos" && mkdir -p "$OUT/photos" && cp "${PHOTOS:-$ROOT/assets/photos}"/*.jpg "$OUT/photos/"
# Guest: the app-driver.sh walk, but under `record`; the recording then goes to the console.
cat > "$OUT/guest/app-driver.sh" <<'GUEST'
#!/bin/sh
ready() { echo "@@READY $1"; read -t 60 ack; }
touch_cmd() { echo "$1" > "$PHOTOKIOSK_E2E_FIFO"; }
/opt/pk/photokiosk record /tmp/recording.txt --display drm --input libinput --photos /opt/pk/photos > /tmp/app.log 2>&1 &
APP=$!
sleep 2
if ! kill -0 $APP 2>/dev/null; then cat /tmp/app.log; echo "@@APP_DIED"; exit 1; fi
ready app_start
touch_cmd "swipe 2048 3400 2048 700 15"; ready app_swipe
touch_cmd "tap 1536 1638"; ready app_tap
touch_cmd "key 50 1"; touch_cmd "key 50 0"; sleep 0.5     # M: a mark line (the replay's PNG of the open photo)
touch_cmd "key 1 1"; touch_cmd "key 1 0"; ready app_back
kill -TERM $APP; wait $APP; rc=$?
tail -n 20 /tmp/app.log
while IFS= read -r line; do echo "@@REC $line"; done < /tmp/recording.txt
# The touch test with the overlay: nine taps, each 32 units (2 mm at 16 units/mm) right and 16
# units (1 mm) low of its target; the centre one held still for 0.3 s (jitter).
/opt/pk/photokiosk record /tmp/touchtest.txt --touch-test --touch-overlay --display drm --input libinput > /tmp/tt.log 2>&1 &
TT=$!
i=0; while ! grep -q "input device added: photokiosk-e2e-touchscreen" /tmp/tt.log && [ $i -lt 300 ]; do sleep 0.1; i=$((i+1)); done
sleep 1
for y in 262 2064 3866; do
  for x in 278 2080 3882; do
    if [ $x = 2080 ] && [ $y = 2064 ]; then touch_cmd "swipe $x $y $x $y 20"; else touch_cmd "tap $x $y"; fi
    sleep 0.7
  done
done
sleep 1
ready tt_done
kill -TERM $TT; wait $TT
sed -n '/^touch test:/,$p' /tmp/tt.log | sed 's/^/TOUCHTEST /'
echo "@@APP_EXIT $rc"
ready app_exit
[ $rc = 0 ]
GUEST
chmod +x "$OUT/guest/app-driver.sh"
"$E2E/build-initrd.sh" "$KROOT" "$OUT/initrd.gz" "$BIN/photokiosk" "$OUT/uitouch" "$OUT/guest/app-driver.sh" "$OUT/photos"

rc=0
for d in $DISPLAYS; do
  rm -f "$OUT/recording-$d.txt"
  python3 "$E2E/harness.py" --display $d --mode app --kernel "$KROOT/vmlinux" --initrd "$OUT/initrd.gz" \
    --out "$OUT" --save-recording "$OUT/recording-$d.txt" || rc=1
  rec=$OUT/recording-$d.txt
  if [ ! -s "$rec" ]; then echo "record: FAIL ($d: no recording came back)"; rc=1; continue; fi
  echo "record: $d: $(grep -c ' frame$' "$rec") touch frames, $(wc -l < "$rec") lines; $(sed -n 2p "$rec")"
  # Replay twice headless at the recorded size: the same pixels and report, and the VM's last screen.
  for n in 1 2; do
    "$BIN/photokiosk" replay "$rec" --fast --report --photos "$OUT/photos" --cache-disk-mb 0 --log-level error \
      --png "$OUT/replay-$d-$n.png" --png-at-marks "$OUT" > "$OUT/replay-$d-$n.txt"
  done
  cat "$OUT/replay-$d-1.txt"
  cmp -s "$OUT/replay-$d-1.png" "$OUT/replay-$d-2.png" \
    && diff -q <(grep -v '^final screen\|^mark' "$OUT/replay-$d-1.txt") <(grep -v '^final screen\|^mark' "$OUT/replay-$d-2.txt") >/dev/null \
    || { echo "record: FAIL ($d: two replays differ)"; rc=1; }
  # The touch test in the VM: the figures must recover the scripted offset.
  tt=$(sed -n 's/^.*TOUCHTEST //p' "$OUT/console-app-$d.log" | tr -d '\r')
  echo "$tt"
  if echo "$tt" | grep -q "mean offset 2.0,1.0 mm" && echo "$tt" | grep -q "missed 0, doubled 0, not tapped 0" \
     && echo "$tt" | grep -Eq 'LIBINPUT_CALIBRATION_MATRIX}="1\.000[0-9]+ 0\.000000 -0\.00(78|79)[0-9]+ 0\.000000 1\.000[0-9]+ -0\.00(39|40)[0-9]+"'; then
    echo "record: touch test in the VM recovers the 2 mm right, 1 mm down offset"
  else
    echo "record: FAIL ($d: touch-test figures)"; rc=1
  fi
  [ -f "$OUT/m1.png" ] && mv "$OUT/m1.png" "$OUT/replay-$d-m1.png"
  PYTHONPATH="$E2E" python3 - "$OUT/app-$d-app_tap.ppm" "$OUT/replay-$d-m1.png" "$OUT/app-$d-app_back.ppm" "$OUT/replay-$d-1.png" <<'PY' || rc=1
import sys
from pixels import read_png as png, read_ppm as ppm
def same(live_path, replay_path, what):
    (lw, lh, live), (rw, rh, rep) = ppm(live_path), png(replay_path)
    if (lw, lh) != (rw, rh): print(f'record: FAIL ({what}: VM screen {lw}x{lh}, replay {rw}x{rh})'); return False
    off = sum(1 for k in range(0, len(live), 3) if max(abs(live[k + j] - rep[k + j]) for j in range(3)) > 8)
    share = off / (lw * lh)
    print(f'record: {what}: replay vs VM screen: {off} of {lw * lh} pixels differ by more than 8 levels ({share:.4%})')
    return share < 0.001
ok = [same(sys.argv[1], sys.argv[2], 'photo opened (mark m1)'), same(sys.argv[3], sys.argv[4], 'back to the grid (end)')]
sys.exit(0 if all(ok) else 1)
PY
done
echo "record: $([ $rc = 0 ] && echo PASS || echo FAIL) (recordings, screendumps and replays in $OUT)"
exit $rc
