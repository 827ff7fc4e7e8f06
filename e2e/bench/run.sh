#!/bin/sh
# Build and run the scanout-copy benchmark (pixman vs a C loop); prints best-of-30 times.
set -e
cd "$(dirname "$0")"
gcc -O2 -o /tmp/photokiosk-bench-rotate rotate.c $(pkg-config --cflags --libs pixman-1)
/tmp/photokiosk-bench-rotate
