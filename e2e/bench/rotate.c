// Measures the copy Platform's present() does: logical XRGB frame → scanout, with rotation,
// pixman (what ScanoutCopier uses) against a plain C loop (what a hand-written Swift loop would
// compile to at best). Also XRGB → RGB565 for fbdev. Run: e2e/bench/run.sh
#include <pixman.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

enum { W = 1920, H = 1080, REPS = 30 };

static double now(void) { struct timespec t; clock_gettime(CLOCK_MONOTONIC, &t); return t.tv_sec + t.tv_nsec / 1e9; }

static void set_rotation(pixman_image_t *src, int deg, int lw, int lh) {
    pixman_transform_t t; pixman_transform_init_identity(&t);
    double m[6] = {1, 0, 0, 0, 1, 0};
    if (deg == 90)  { double r[6] = {0, 1, 0, -1, 0, lh}; memcpy(m, r, sizeof m); }
    if (deg == 180) { double r[6] = {-1, 0, lw, 0, -1, lh}; memcpy(m, r, sizeof m); }
    if (deg == 270) { double r[6] = {0, -1, lw, 1, 0, 0}; memcpy(m, r, sizeof m); }
    for (int i = 0; i < 6; i++) t.matrix[i / 3][i % 3] = pixman_double_to_fixed(m[i]);
    pixman_image_set_transform(src, deg ? &t : NULL);
    pixman_image_set_filter(src, PIXMAN_FILTER_NEAREST, NULL, 0);
}

static void hand_rotate(const uint32_t *s, uint32_t *d, int lw, int lh, int deg) {
    int dw = (deg == 90 || deg == 270) ? lh : lw;
    for (int y = 0; y < lh; y++) for (int x = 0; x < lw; x++) {
        int dx, dy;
        switch (deg) { case 90: dx = lh - 1 - y; dy = x; break; case 180: dx = lw - 1 - x; dy = lh - 1 - y; break;
                       case 270: dx = y; dy = lw - 1 - x; break; default: dx = x; dy = y; }
        d[dy * dw + dx] = s[y * lw + x];
    }
}

int main(void) {
    uint32_t *src = malloc(W * H * 4), *dst = malloc(W * H * 4);
    for (int i = 0; i < W * H; i++) src[i] = i * 2654435761u;
    int degs[4] = {0, 90, 180, 270};
    for (int k = 0; k < 4; k++) {
        int deg = degs[k], lw = (deg % 180) ? H : W, lh = (deg % 180) ? W : H;   // device is always W x H
        pixman_image_t *s = pixman_image_create_bits(PIXMAN_x8r8g8b8, lw, lh, src, lw * 4);
        pixman_image_t *d = pixman_image_create_bits(PIXMAN_x8r8g8b8, W, H, dst, W * 4);
        set_rotation(s, deg, lw, lh);
        double best = 1e9, bestHand = 1e9;
        for (int r = 0; r < REPS; r++) {
            double t0 = now();
            if (deg) pixman_image_composite32(PIXMAN_OP_SRC, s, NULL, d, 0, 0, 0, 0, 0, 0, W, H);
            else pixman_image_composite32(PIXMAN_OP_SRC, s, NULL, d, 0, 0, 0, 0, 0, 0, W, H);
            double t1 = now(); if (t1 - t0 < best) best = t1 - t0;
            t0 = now(); hand_rotate(src, dst, lw, lh, deg); t1 = now(); if (t1 - t0 < bestHand) bestHand = t1 - t0;
        }
        printf("rotate %3d  full %dx%d: pixman %.2f ms, C loop %.2f ms\n", deg, W, H, best * 1e3, bestHand * 1e3);
        pixman_image_unref(s); pixman_image_unref(d);
    }
    uint16_t *d16 = malloc(W * H * 2);
    pixman_image_t *s = pixman_image_create_bits(PIXMAN_x8r8g8b8, W, H, src, W * 4);
    pixman_image_t *d = pixman_image_create_bits(PIXMAN_r5g6b5, W, H, (uint32_t *)d16, W * 2);
    double best = 1e9, bestHand = 1e9;
    for (int r = 0; r < REPS; r++) {
        double t0 = now(); pixman_image_composite32(PIXMAN_OP_SRC, s, NULL, d, 0, 0, 0, 0, 0, 0, W, H);
        double t1 = now(); if (t1 - t0 < best) best = t1 - t0;
        t0 = now();
        for (int i = 0; i < W * H; i++) { uint32_t p = src[i]; d16[i] = (p >> 8 & 0xF800) | (p >> 5 & 0x07E0) | (p >> 3 & 0x1F); }
        t1 = now(); if (t1 - t0 < bestHand) bestHand = t1 - t0;
    }
    printf("xrgb->rgb565 full %dx%d: pixman %.2f ms, C loop %.2f ms\n", W, H, best * 1e3, bestHand * 1e3);
    return 0;
}
