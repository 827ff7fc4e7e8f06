#!/usr/bin/env bash
# The measurement behind ARCHITECTURE.md "Dependencies and why" (anti-aliased shapes): the same 200x40
# rounded rectangle filled N times with pixman's trapezoid rasteriser (what Canvas+Shapes does),
# a pixman triangle fan, and cairo 1.16 (Debian's libcairo2; declared by hand, so only the
# runtime library is needed). Each program also links FreeType and libpng, as photokiosk does,
# so the resident-memory and start-up figures show what cairo would add.
set -euo pipefail
cd "$(dirname "$0")"
N=${N:-20000}
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
base="$(pkg-config --libs pixman-1 freetype2 libpng) -lm"
gcc -O2 pixman-trapezoids.c -o "$out/trapezoids" -Wl,--no-as-needed $(pkg-config --cflags pixman-1) $base
gcc -O2 pixman-triangles.c -o "$out/triangles" -Wl,--no-as-needed $(pkg-config --cflags pixman-1) $base
gcc -O2 cairo.c -o "$out/cairo" -Wl,--no-as-needed -l:libcairo.so.2 $base
for p in trapezoids triangles cairo; do
    /usr/bin/time -f "$p: $N shapes user %U s sys %S s, max RSS %M kB" "$out/$p" "$N" >/dev/null
    /usr/bin/time -f "$p: one shape (start-up) max RSS %M kB, wall %e s" "$out/$p" 1 >/dev/null
done
echo "shared libraries cairo adds: $(comm -23 <(ldd "$out/cairo" | awk '{print $3}' | grep / | sort) \
    <(ldd "$out/trapezoids" | awk '{print $3}' | grep / | sort) | wc -l)"
