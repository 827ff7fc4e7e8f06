/* The driver both pixman programs share (cairo.c draws through its own surface): fill the same
 * 200x40 rounded rectangle N times (argv[1], default 1) into a 1280x720 XRGB image with the
 * program's own rrect(), then print a pixel, so that the work cannot be optimised away. */
#include <pixman.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#define W 1280
#define H 720

static void rrect(pixman_image_t *dst, double x, double y, double w, double h, double r);

int main(int argc, char **argv) {
    int count = argc > 1 ? atoi(argv[1]) : 1;
    uint32_t *bits = calloc(W*H, 4);
    pixman_image_t *dst = pixman_image_create_bits(PIXMAN_x8r8g8b8, W, H, bits, W*4);
    for (int i = 0; i < count; i++) rrect(dst, 100 + i % 500, 100, 200, 40, 20);
    printf("%u %u %u\n", bits[120*W+200], bits[100*W+100], bits[101*W+110]);
    return 0;
}
