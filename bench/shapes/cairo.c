#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <stdint.h>
typedef struct _cairo cairo_t; typedef struct _cairo_surface cairo_surface_t;
cairo_surface_t *cairo_image_surface_create_for_data(unsigned char *, int, int, int, int);
cairo_t *cairo_create(cairo_surface_t *);
void cairo_set_source_rgba(cairo_t *, double, double, double, double);
void cairo_new_sub_path(cairo_t *); void cairo_arc(cairo_t *, double, double, double, double, double);
void cairo_close_path(cairo_t *); void cairo_fill(cairo_t *); void cairo_destroy(cairo_t *);
void cairo_surface_flush(cairo_surface_t *);
#define W 1280
#define H 720
int main(int argc, char **argv) {
    int count = argc > 1 ? atoi(argv[1]) : 1;
    uint32_t *bits = calloc(W*H, 4);
    cairo_surface_t *s = cairo_image_surface_create_for_data((unsigned char *)bits, 1 /*RGB24*/, W, H, W*4);
    cairo_t *cr = cairo_create(s);
    cairo_set_source_rgba(cr, 0.5, 0.5, 0.5, 0.5);
    for (int i = 0; i < count; i++) { double x = 100 + i % 500, y = 100, w = 200, h = 40, r = 20;
        cairo_new_sub_path(cr); cairo_arc(cr, x+w-r, y+r, r, -M_PI/2, 0); cairo_arc(cr, x+w-r, y+h-r, r, 0, M_PI/2);
        cairo_arc(cr, x+r, y+h-r, r, M_PI/2, M_PI); cairo_arc(cr, x+r, y+r, r, M_PI, 3*M_PI/2); cairo_close_path(cr); cairo_fill(cr); }
    cairo_surface_flush(s);
    printf("%u\n", bits[120*W+200]);
    cairo_destroy(cr);
    return 0;
}
