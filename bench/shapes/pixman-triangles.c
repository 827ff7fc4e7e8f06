#include "pixman-shape-main.h"
#include <math.h>
static void rrect(pixman_image_t *dst, double x, double y, double w, double h, double r) {
    pixman_color_t c = {0x8000, 0x8000, 0x8000, 0x8000};
    pixman_image_t *solid = pixman_image_create_solid_fill(&c);
    int n = 8; pixman_point_fixed_t pts[4*9]; int k = 0;
    double cx[4] = {x+w-r, x+w-r, x+r, x+r}, cy[4] = {y+r, y+h-r, y+h-r, y+r}, st[4] = {-M_PI/2, 0, M_PI/2, M_PI};
    for (int q = 0; q < 4; q++) for (int i = 0; i <= n; i++) { double a = st[q] + i * M_PI / 2 / n;
        pts[k].x = pixman_double_to_fixed(cx[q] + r*cos(a)); pts[k].y = pixman_double_to_fixed(cy[q] + r*sin(a)); k++; }
    pixman_triangle_t tris[36]; pixman_point_fixed_t ctr = {pixman_double_to_fixed(x+w/2), pixman_double_to_fixed(y+h/2)};
    for (int i = 0; i < k; i++) { tris[i].p1 = ctr; tris[i].p2 = pts[i]; tris[i].p3 = pts[(i+1)%k]; }
    pixman_composite_triangles(PIXMAN_OP_OVER, solid, dst, PIXMAN_a8, 0, 0, 0, 0, k, tris);
    pixman_image_unref(solid);
}
