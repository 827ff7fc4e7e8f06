#!/bin/bash
# Builds gpio-sim.ko for the pinned e2e kernel: Debian's kernel has neither CONFIG_GPIO_SIM nor
# CONFIG_GPIO_MOCKUP, so the presence stage's simulated GPIO chip is built as an out-of-tree module
# from Debian's own kernel source and headers (downloaded .debs, extracted, never installed).
# irq_sim.c (not built into Debian's kernel) is linked into the module. ~35 s the first time.
# Usage: build-gpio-sim.sh CACHE KVER OUT.ko   (OUT.ko written through a temp file + rename)
set -euo pipefail
CACHE=$1 KVER=$2 OUT=$3
SERIES=$(echo "$KVER" | cut -d. -f1-2)   # 6.1
. "$(dirname "$0")/kernel-build-root.sh"
W=$(mktemp -d "$CACHE/gpio-sim-build.XXXX")
trap 'rm -rf "$W"' EXIT
cd "$W"
kernel_build_root "$KVER" gpio-sim
mkdir mod
tar -xJf root/usr/src/linux-source-$SERIES.tar.xz --wildcards '*/drivers/gpio/gpio-sim.c' '*/kernel/irq/irq_sim.c' \
  '*/drivers/gpio/gpiolib.h'
src=$(echo linux-source-$SERIES)
cp "$src/drivers/gpio/gpio-sim.c" mod/gpio-sim-main.c
cp "$src/drivers/gpio/gpiolib.h" mod/
# irq_to_desc is not exported in 6.1; generic_handle_irq is, and runs the same handler
# (the simulator's domain maps handle_simple_irq).
sed 's/handle_simple_irq(irq_to_desc(\([^)]*\)))/generic_handle_irq(\1)/' "$src/kernel/irq/irq_sim.c" > mod/irq_sim.c
grep -q 'generic_handle_irq' mod/irq_sim.c || { echo "build-gpio-sim: irq_sim.c changed: the irq_to_desc edit did not apply"; exit 1; }
printf 'obj-m += gpio-sim.o\ngpio-sim-y := gpio-sim-main.o irq_sim.o\n' > mod/Kbuild
make -s -C root/usr/src/linux-headers-$KVER M="$W/mod" modules >build.log 2>&1 || { tail -20 build.log; exit 1; }
cp mod/gpio-sim.ko "$OUT.tmp.$$" && mv "$OUT.tmp.$$" "$OUT"
echo "build-gpio-sim: $OUT ($(du -h "$OUT" | cut -f1))"
