#include "pixman-shape-main.h"
#include <math.h>
/* Convex outline (clockwise, y down) sliced into horizontal trapezoids between vertex rows. */
static double xat(double x0, double y0, double x1, double y1, double y) { return y1 == y0 ? x0 : x0 + (x1 - x0) * (y - y0) / (y1 - y0); }
static void rrect(pixman_image_t *dst, double x, double y, double w, double h, double r) {
    pixman_color_t c = {0x8000, 0x8000, 0x8000, 0x8000};
    pixman_image_t *solid = pixman_image_create_solid_fill(&c);
    int n = 8; double px[40], py[40]; int k = 0;
    double cx[4] = {x+w-r, x+w-r, x+r, x+r}, cy[4] = {y+r, y+h-r, y+h-r, y+r}, st[4] = {-M_PI/2, 0, M_PI/2, M_PI};
    for (int q = 0; q < 4; q++) for (int i = 0; i <= n; i++) { double a = st[q] + i * M_PI / 2 / n; px[k] = cx[q] + r*cos(a); py[k] = cy[q] + r*sin(a); k++; }
    /* right chain: top (index 0 .. ) going down = q0,q1 (indices 0..2n+1); left chain = q2,q3 reversed. */
    int nr = 2*(n+1); double rx[40], ry[40], lx[40], ly[40];
    for (int i = 0; i < nr; i++) { rx[i] = px[i]; ry[i] = py[i]; }
    /* left chain from top: index k-1 down to nr */
    int nl = 0; lx[nl] = px[0]; ly[nl] = py[0]; nl++; /* start at top point (shared) */
    for (int i = k - 1; i >= nr; i--) { lx[nl] = px[i]; ly[nl] = py[i]; nl++; }
    lx[nl] = px[nr-1]; ly[nl] = py[nr-1]; nl++; /* end at bottom point */
    double ys[80]; int ny = 0;
    for (int i = 0; i < nr; i++) ys[ny++] = ry[i];
    for (int i = 0; i < nl; i++) ys[ny++] = ly[i];
    /* sort unique */
    for (int i = 0; i < ny; i++) for (int j = i+1; j < ny; j++) if (ys[j] < ys[i]) { double t = ys[i]; ys[i] = ys[j]; ys[j] = t; }
    pixman_trapezoid_t traps[80]; int nt = 0; int ir = 0, il = 0;
    for (int i = 0; i + 1 < ny; i++) { double t = ys[i], b = ys[i+1]; if (b - t < 1e-9) continue;
        while (ir + 1 < nr && ry[ir+1] <= t) ir++; while (il + 1 < nl && ly[il+1] <= t) il++;
        pixman_trapezoid_t *tp = &traps[nt++];
        tp->top = pixman_double_to_fixed(t); tp->bottom = pixman_double_to_fixed(b);
        tp->left.p1.x = pixman_double_to_fixed(lx[il]); tp->left.p1.y = pixman_double_to_fixed(ly[il]);
        tp->left.p2.x = pixman_double_to_fixed(lx[il+1]); tp->left.p2.y = pixman_double_to_fixed(ly[il+1]);
        tp->right.p1.x = pixman_double_to_fixed(rx[ir]); tp->right.p1.y = pixman_double_to_fixed(ry[ir]);
        tp->right.p2.x = pixman_double_to_fixed(rx[ir+1]); tp->right.p2.y = pixman_double_to_fixed(ry[ir+1]); }
    pixman_composite_trapezoids(PIXMAN_OP_OVER, solid, dst, PIXMAN_a8, 0, 0, 0, 0, nt, traps);
    pixman_image_unref(solid);
}
