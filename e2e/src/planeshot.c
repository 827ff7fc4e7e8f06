// planeshot: the plane stage's screenshot (plane-driver.sh). vkms shows nothing QEMU could dump,
// so the screen is composed here as the display controller composes it: the primary plane's
// framebuffer, the overlay plane's drawn over it at its CRTC position from its SRC rectangle.
//   planeshot list          the card's planes (type, CRTCs, formats); exit 1 without an overlay
//                           plane that takes XRGB8888
//   planeshot shot OUT.ppm  one "@@PLANES ..." summary line and the composed screen (binary PPM,
//                           the mode's size). Exit 0: an overlay plane is in use and drawn;
//                           2: the CRTC's overlay plane is off (FB_ID 0) and OUT.ppm is the primary
//                           plane alone (written all the same: it shows what the kiosk drew);
//                           1: anything else unexpected (the reason on stderr, no OUT.ppm).
//   planeshot watch MS      the overlay plane's FB_ID every 5 ms for MS ms, as one line:
//                           "@@PLANE_FB_IDS overlay plane O over MS ms: F1 F2 ... (N changes)",
//                           each value once per run of equal samples (0: the plane was off).
//                           Between two shots: with a pool of two buffers, a second later the
//                           plane may show the same FB_ID again though frames went on meanwhile.
//   planeshot selftest WxH  before the kiosk starts (no other master): shows two patterns of its
//                           own, the primary plane full screen and an overlay plane at an offset
//                           CRTC rectangle from an offset SRC rectangle, with one atomic commit,
//                           composes them as `shot` does and compares every pixel with where the
//                           patterns must land. Exit 0 only when all match: a planeshot that
//                           misplaced the overlay would otherwise blame (or excuse) the kiosk.
// Runs as root beside the kiosk, which is DRM master: a non-master client may read the planes'
// state, and GETFB2 gives root (CAP_SYS_ADMIN) a GEM handle to any framebuffer, which MAP_DUMB
// and mmap turn into pixels (the kiosk's framebuffers are dumb buffers).
// Raw ioctls (no libdrm) so that a static build needs nothing in the guest.
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>
#include <drm.h>
#include <drm_fourcc.h>
#include <drm_mode.h>

static const char *card = "/dev/dri/card0";
static int fd;

static void die(const char *fmt, const char *what) {
    fprintf(stderr, "planeshot: "); fprintf(stderr, fmt, what); fprintf(stderr, "\n");
    exit(1);
}
static void xioctl(unsigned long request, void *arg, const char *what) {
    if (ioctl(fd, request, arg)) { char m[200]; snprintf(m, sizeof m, "%s: %s", what, strerror(errno)); die("%s", m); }
}
static const char *fourcc(uint32_t f) {
    static char s[5];
    for (int i = 0; i < 4; i++) s[i] = (char)(f >> (8 * i));
    return s;
}

enum { OVERLAY = 0, PRIMARY = 1, CURSOR = 2 };
struct plane {
    uint32_t id, possible_crtcs, nformats, formats[64];
    uint64_t type, fb, crtc, crtc_x, crtc_y, crtc_w, crtc_h, src_x, src_y, src_w, src_h;
};

// The plane's properties by name. FB_ID, CRTC_* and SRC_* are atomic properties, listed only to a
// client that set DRM_CLIENT_CAP_ATOMIC (hence both caps in main).
static void read_plane(uint32_t id, struct plane *p) {
    memset(p, 0, sizeof *p);
    p->id = id;
    struct drm_mode_get_plane gp = { .plane_id = id, .format_type_ptr = (uintptr_t)p->formats, .count_format_types = 64 };
    xioctl(DRM_IOCTL_MODE_GETPLANE, &gp, "GETPLANE");
    p->possible_crtcs = gp.possible_crtcs;
    p->nformats = gp.count_format_types < 64 ? gp.count_format_types : 64;
    struct drm_mode_obj_get_properties op = { .obj_id = id, .obj_type = DRM_MODE_OBJECT_PLANE };
    xioctl(DRM_IOCTL_MODE_OBJ_GETPROPERTIES, &op, "OBJ_GETPROPERTIES");
    uint32_t ids[op.count_props ? op.count_props : 1]; uint64_t values[op.count_props ? op.count_props : 1];
    op.props_ptr = (uintptr_t)ids; op.prop_values_ptr = (uintptr_t)values;
    xioctl(DRM_IOCTL_MODE_OBJ_GETPROPERTIES, &op, "OBJ_GETPROPERTIES");
    int seen = 0;
    for (uint32_t i = 0; i < op.count_props; i++) {
        struct drm_mode_get_property gp2 = { .prop_id = ids[i] };
        xioctl(DRM_IOCTL_MODE_GETPROPERTY, &gp2, "GETPROPERTY");
        struct { const char *name; uint64_t *to; } names[] = {
            {"type", &p->type}, {"FB_ID", &p->fb}, {"CRTC_ID", &p->crtc}, {"CRTC_X", &p->crtc_x}, {"CRTC_Y", &p->crtc_y},
            {"CRTC_W", &p->crtc_w}, {"CRTC_H", &p->crtc_h}, {"SRC_X", &p->src_x}, {"SRC_Y", &p->src_y},
            {"SRC_W", &p->src_w}, {"SRC_H", &p->src_h}};
        for (size_t n = 0; n < sizeof names / sizeof names[0]; n++)
            if (!strcmp(gp2.name, names[n].name)) { *names[n].to = values[i]; seen++; }
    }
    if (seen != 11) die("plane %s lacks some of type, FB_ID, CRTC_ID, CRTC_X/Y/W/H, SRC_X/Y/W/H", "");
}

static int takes(const struct plane *p, uint32_t format) {
    for (uint32_t i = 0; i < p->nformats; i++) if (p->formats[i] == format) return 1;
    return 0;
}

// Every plane of the card (universal planes: primary and cursor too).
static uint32_t planes_of_card(struct plane *out, uint32_t max) {
    struct drm_mode_get_plane_res pr = {0};
    xioctl(DRM_IOCTL_MODE_GETPLANERESOURCES, &pr, "GETPLANERESOURCES");
    uint32_t ids[pr.count_planes ? pr.count_planes : 1];
    pr.plane_id_ptr = (uintptr_t)ids;
    xioctl(DRM_IOCTL_MODE_GETPLANERESOURCES, &pr, "GETPLANERESOURCES");
    if (pr.count_planes > max) die("more than 32 planes%s", "");
    for (uint32_t i = 0; i < pr.count_planes; i++) read_plane(ids[i], &out[i]);
    return pr.count_planes;
}

static const char *type_name(uint64_t t) { return t == PRIMARY ? "primary" : t == OVERLAY ? "overlay" : t == CURSOR ? "cursor" : "?"; }

static int list(void) {
    struct drm_version v = {0}; char name[64] = "";
    v.name = name; v.name_len = sizeof name - 1;
    xioctl(DRM_IOCTL_VERSION, &v, "VERSION");
    struct plane planes[32];
    uint32_t n = planes_of_card(planes, 32), overlays = 0;
    printf("@@PLANES_CARD %s driver %s, %u planes:", card, name, n);
    for (uint32_t i = 0; i < n; i++) {
        printf(" %s %u (crtcs 0x%x, %u formats%s)", type_name(planes[i].type), planes[i].id, planes[i].possible_crtcs,
               planes[i].nformats, takes(&planes[i], DRM_FORMAT_XRGB8888) ? " with XR24" : "");
        if (planes[i].type == OVERLAY && takes(&planes[i], DRM_FORMAT_XRGB8888)) overlays++;
    }
    printf("\n");
    if (!overlays) { fprintf(stderr, "planeshot: %s has no overlay plane that takes XRGB8888\n", card); return 1; }
    return 0;
}

// One plane's framebuffer drawn onto the RGB screen (w x h) at its CRTC rectangle, from its SRC
// rectangle; no scaling (the kiosk crops, it does not scale). A description goes into `say`.
static void draw(const struct plane *p, uint8_t *rgb, int w, int h, char *say, size_t room) {
    struct drm_mode_fb_cmd2 fb = { .fb_id = (uint32_t)p->fb };
    xioctl(DRM_IOCTL_MODE_GETFB2, &fb, "GETFB2");
    if (fb.pixel_format != DRM_FORMAT_XRGB8888 && fb.pixel_format != DRM_FORMAT_ARGB8888)
        die("framebuffer in %s, not XRGB8888 or ARGB8888", fourcc(fb.pixel_format));
    if ((fb.flags & DRM_MODE_FB_MODIFIERS) && fb.modifier[0] != DRM_FORMAT_MOD_LINEAR) die("framebuffer not linear%s", "");
    if (!fb.handles[0]) die("GETFB2 gave no handle (root is needed while another client is master)%s", "");
    int32_t cx = (int32_t)p->crtc_x, cy = (int32_t)p->crtc_y;
    uint32_t cw = (uint32_t)p->crtc_w, ch = (uint32_t)p->crtc_h;
    uint32_t sx = (uint32_t)(p->src_x >> 16), sy = (uint32_t)(p->src_y >> 16);
    uint32_t sw = (uint32_t)(p->src_w >> 16), sh = (uint32_t)(p->src_h >> 16);
    char m[300];
    if (sw != cw || sh != ch || (p->src_x | p->src_y | p->src_w | p->src_h) & 0xffff) {
        snprintf(m, sizeof m, "plane %u scales (SRC %ux%u, CRTC %ux%u) or has a fractional SRC", p->id, sw, sh, cw, ch); die("%s", m);
    }
    if (sx + sw > fb.width || sy + sh > fb.height) {
        snprintf(m, sizeof m, "plane %u's SRC %ux%u+%u+%u leaves its %ux%u framebuffer", p->id, sw, sh, sx, sy, fb.width, fb.height); die("%s", m);
    }
    struct drm_mode_map_dumb map = { .handle = fb.handles[0] };
    xioctl(DRM_IOCTL_MODE_MAP_DUMB, &map, "MAP_DUMB");
    size_t size = (size_t)fb.offsets[0] + (size_t)fb.pitches[0] * fb.height;
    const uint8_t *px = mmap(NULL, size, PROT_READ, MAP_SHARED, fd, (off_t)map.offset);
    if (px == MAP_FAILED) die("mmap of the framebuffer: %s", strerror(errno));
    int alpha = fb.pixel_format == DRM_FORMAT_ARGB8888;
    for (uint32_t y = 0; y < ch; y++) {
        int64_t oy = (int64_t)cy + y;
        if (oy < 0 || oy >= h) continue;
        const uint8_t *row = px + fb.offsets[0] + (size_t)(sy + y) * fb.pitches[0] + (size_t)sx * 4;
        for (uint32_t x = 0; x < cw; x++) {
            int64_t ox = (int64_t)cx + x;
            if (ox < 0 || ox >= w) continue;
            const uint8_t *s = row + (size_t)x * 4;              // B G R A/X in memory (little endian)
            uint8_t *d = rgb + ((size_t)oy * w + ox) * 3;
            if (!alpha) { d[0] = s[2]; d[1] = s[1]; d[2] = s[0]; }
            else for (int c = 0; c < 3; c++)                     // pre-multiplied, DRM's default blend mode
                d[c] = (uint8_t)(s[2 - c] + d[c] * (255 - s[3]) / 255);
        }
    }
    munmap((void *)px, size);
    struct drm_gem_close close_handle = { .handle = fb.handles[0] };
    ioctl(fd, DRM_IOCTL_GEM_CLOSE, &close_handle);
    snprintf(say, room, "plane %u fb %u %s %ux%u at %ux%u%+d%+d src %ux%u+%u+%u", p->id, fb.fb_id, fourcc(fb.pixel_format),
             fb.width, fb.height, cw, ch, cx, cy, sw, sh, sx, sy);
}

struct composed { int w, h, used, attempts; uint8_t *rgb; uint32_t off_overlay; char summary[700]; };

// The active CRTC's planes composed into c->rgb; 0 with an overlay plane in use, 2 without one.
static int compose(struct composed *c) {
    // the active CRTC (the kiosk drives one) and its mode
    struct drm_mode_card_res res = {0};
    xioctl(DRM_IOCTL_MODE_GETRESOURCES, &res, "GETRESOURCES");
    uint32_t crtcs[res.count_crtcs ? res.count_crtcs : 1];
    res.crtc_id_ptr = (uintptr_t)crtcs; res.count_fbs = res.count_connectors = res.count_encoders = 0;
    xioctl(DRM_IOCTL_MODE_GETRESOURCES, &res, "GETRESOURCES");
    struct drm_mode_crtc crtc = {0};
    int index = -1;
    for (uint32_t i = 0; i < res.count_crtcs && index < 0; i++) {
        crtc = (struct drm_mode_crtc){ .crtc_id = crtcs[i] };
        xioctl(DRM_IOCTL_MODE_GETCRTC, &crtc, "GETCRTC");
        if (crtc.mode_valid) index = (int)i;
    }
    if (index < 0) die("no CRTC is on%s", "");
    int w = crtc.mode.hdisplay, h = crtc.mode.vdisplay;
    // The planes' state and pixels, taken again when a framebuffer changed while they were copied
    // (a new frame flipped in meanwhile, whose old buffer the kiosk may be writing): the shot is of
    // framebuffers that stayed on their planes for the whole copy.
    uint8_t *rgb = malloc((size_t)w * h * 3);
    if (!rgb) die("out of memory%s", "");
    struct plane planes[32], again[32];
    char primary_say[300] = "", overlay_say[300] = "";
    int attempt, primary = -1, overlay = -1, off_overlay = -1;
    for (attempt = 1; attempt <= 20; attempt++) {
        uint32_t n = planes_of_card(planes, 32), used = 0;
        primary = overlay = off_overlay = -1;
        for (uint32_t i = 0; i < n; i++) {
            if (!(planes[i].possible_crtcs & (1u << index))) continue;
            if (planes[i].type == PRIMARY && planes[i].crtc == crtc.crtc_id) primary = (int)i;
            if (planes[i].type == OVERLAY && planes[i].crtc == crtc.crtc_id && planes[i].fb) { overlay = (int)i; used++; }
            if (planes[i].type == OVERLAY && off_overlay < 0) off_overlay = (int)i;
        }
        if (primary < 0 || !planes[primary].fb) die("the CRTC's primary plane holds no framebuffer%s", "");
        if (used > 1) die("more than one overlay plane is in use%s", "");
        if (off_overlay < 0) die("the card has no overlay plane for the CRTC (vkms without enable_overlay=1?)%s", "");
        memset(rgb, 0, (size_t)w * h * 3);               // where no plane is: black, as vkms's background
        draw(&planes[primary], rgb, w, h, primary_say, sizeof primary_say);
        if (overlay >= 0) draw(&planes[overlay], rgb, w, h, overlay_say, sizeof overlay_say);
        planes_of_card(again, 32);
        if (again[primary].fb == planes[primary].fb && (overlay < 0 || again[overlay].fb == planes[overlay].fb)) break;
    }
    if (attempt > 20) die("the framebuffers changed during each of 20 copies%s", "");
    if (overlay < 0) snprintf(overlay_say, sizeof overlay_say, "plane %u off (fb 0)", planes[off_overlay].id);
    snprintf(c->summary, sizeof c->summary, "crtc %u mode %dx%d | primary %s | overlay %s | %d attempt(s)",
             crtc.crtc_id, w, h, primary_say, overlay_say, attempt);
    c->w = w; c->h = h; c->rgb = rgb; c->used = overlay >= 0; c->attempts = attempt; c->off_overlay = planes[off_overlay].id;
    return overlay >= 0 ? 0 : 2;
}

static int shot(const char *out) {
    struct composed c;
    int r = compose(&c);
    FILE *f = fopen(out, "wb");
    if (!f) die("cannot write %s", out);
    fprintf(f, "P6\n%d %d\n255\n", c.w, c.h);
    if (fwrite(c.rgb, 1, (size_t)c.w * c.h * 3, f) != (size_t)c.w * c.h * 3 || fclose(f)) die("cannot write %s", out);
    printf("@@PLANES %s\n", c.summary);
    fflush(stdout);
    if (r == 2)
        fprintf(stderr, "planeshot: the overlay plane %u holds no framebuffer (FB_ID 0): %s is the primary plane alone\n",
                c.off_overlay, out);
    return r;
}

// A property of an object by its name (its id).
static uint32_t prop_id(uint32_t obj, uint32_t type, const char *name) {
    struct drm_mode_obj_get_properties op = { .obj_id = obj, .obj_type = type };
    xioctl(DRM_IOCTL_MODE_OBJ_GETPROPERTIES, &op, "OBJ_GETPROPERTIES");
    uint32_t ids[op.count_props ? op.count_props : 1]; uint64_t values[op.count_props ? op.count_props : 1];
    op.props_ptr = (uintptr_t)ids; op.prop_values_ptr = (uintptr_t)values;
    xioctl(DRM_IOCTL_MODE_OBJ_GETPROPERTIES, &op, "OBJ_GETPROPERTIES");
    for (uint32_t i = 0; i < op.count_props; i++) {
        struct drm_mode_get_property gp = { .prop_id = ids[i] };
        xioctl(DRM_IOCTL_MODE_GETPROPERTY, &gp, "GETPROPERTY");
        if (!strcmp(gp.name, name)) return ids[i];
    }
    die("no property %s", name);
    return 0;
}

static int watch(const char *ms_text) {
    long ms = atol(ms_text);
    if (ms <= 0 || ms > 60000) die("watch MS, 1-60000, not %s", ms_text);
    // the overlay in use (else the first one), then only its FB_ID: one ioctl a sample, so the
    // watch takes little of the one vCPU the kiosk decodes on
    struct plane planes[32];
    uint32_t n = planes_of_card(planes, 32);
    const struct plane *p = NULL;
    for (uint32_t i = 0; i < n && !p; i++) if (planes[i].type == OVERLAY && planes[i].fb) p = &planes[i];
    for (uint32_t i = 0; i < n && !p; i++) if (planes[i].type == OVERLAY) p = &planes[i];
    if (!p) die("no overlay plane%s", "");
    uint32_t fb_prop = prop_id(p->id, DRM_MODE_OBJECT_PLANE, "FB_ID"), changes = 0;
    struct drm_mode_obj_get_properties op = { .obj_id = p->id, .obj_type = DRM_MODE_OBJECT_PLANE };
    xioctl(DRM_IOCTL_MODE_OBJ_GETPROPERTIES, &op, "OBJ_GETPROPERTIES");
    uint32_t count = op.count_props, ids[count ? count : 1]; uint64_t values[count ? count : 1];
    uint64_t last = UINT64_MAX;
    char seen[4000] = ""; size_t used = 0;
    struct timespec t0, now;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    do {
        op = (struct drm_mode_obj_get_properties){ .obj_id = p->id, .obj_type = DRM_MODE_OBJECT_PLANE, .count_props = count,
                                                   .props_ptr = (uintptr_t)ids, .prop_values_ptr = (uintptr_t)values };
        xioctl(DRM_IOCTL_MODE_OBJ_GETPROPERTIES, &op, "OBJ_GETPROPERTIES");
        for (uint32_t i = 0; i < count; i++) {
            if (ids[i] != fb_prop || values[i] == last) continue;
            if (last != UINT64_MAX) changes++;
            if (used < sizeof seen - 24) used += (size_t)snprintf(seen + used, sizeof seen - used, " %llu", (unsigned long long)values[i]);
            last = values[i];
        }
        usleep(10000);
        clock_gettime(CLOCK_MONOTONIC, &now);
    } while ((now.tv_sec - t0.tv_sec) * 1000 + (now.tv_nsec - t0.tv_nsec) / 1000000 < ms);
    printf("@@PLANE_FB_IDS overlay plane %u over %ld ms:%s (%u changes)\n", p->id, ms, seen, changes);
    return 0;
}

// --- selftest: planeshot's own patterns on the planes, composed and compared ---

// A dumb XRGB8888 buffer filled by `colour`, made a framebuffer.
static uint32_t pattern_fb(uint32_t w, uint32_t h, uint32_t (*colour)(uint32_t x, uint32_t y)) {
    struct drm_mode_create_dumb cd = { .width = w, .height = h, .bpp = 32 };
    xioctl(DRM_IOCTL_MODE_CREATE_DUMB, &cd, "CREATE_DUMB");
    struct drm_mode_map_dumb map = { .handle = cd.handle };
    xioctl(DRM_IOCTL_MODE_MAP_DUMB, &map, "MAP_DUMB");
    uint8_t *px = mmap(NULL, cd.size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, (off_t)map.offset);
    if (px == MAP_FAILED) die("mmap of a dumb buffer: %s", strerror(errno));
    for (uint32_t y = 0; y < h; y++)
        for (uint32_t x = 0; x < w; x++) *(uint32_t *)(px + (size_t)y * cd.pitch + x * 4) = colour(x, y);
    munmap(px, cd.size);
    struct drm_mode_fb_cmd2 fb = { .width = w, .height = h, .pixel_format = DRM_FORMAT_XRGB8888,
                                   .handles = { cd.handle }, .pitches = { cd.pitch } };
    xioctl(DRM_IOCTL_MODE_ADDFB2, &fb, "ADDFB2");
    return fb.fb_id;
}
// Two patterns no offset error can pass: up to 2048x2048 each pixel's colour says where it is, and
// red under 0x80 is the primary's, 0x80 and over the overlay's.
static uint32_t primary_colour(uint32_t x, uint32_t y) { return ((x >> 8) * 8 + (y >> 8)) << 16 | (x & 255) << 8 | (y & 255); }
static uint32_t overlay_colour(uint32_t x, uint32_t y) { return (0x80 | (y >> 5)) << 16 | (x & 255) << 8 | ((x >> 8) * 32 + (y & 31)); }

static int selftest(const char *size) {
    int want_w, want_h;
    if (sscanf(size, "%dx%d", &want_w, &want_h) != 2) die("selftest WxH, not %s", size);
    xioctl(DRM_IOCTL_SET_MASTER, NULL, "SET_MASTER (selftest runs before the kiosk)");
    struct drm_mode_card_res res = {0};
    xioctl(DRM_IOCTL_MODE_GETRESOURCES, &res, "GETRESOURCES");
    uint32_t crtcs[res.count_crtcs ? res.count_crtcs : 1], conns[res.count_connectors ? res.count_connectors : 1];
    res.crtc_id_ptr = (uintptr_t)crtcs; res.connector_id_ptr = (uintptr_t)conns; res.count_fbs = res.count_encoders = 0;
    xioctl(DRM_IOCTL_MODE_GETRESOURCES, &res, "GETRESOURCES");
    if (!res.count_crtcs || !res.count_connectors) die("no CRTC or connector%s", "");
    struct drm_mode_modeinfo mode = {0};
    uint32_t connector = 0;
    for (uint32_t i = 0; i < res.count_connectors && !connector; i++) {
        struct drm_mode_get_connector gc = { .connector_id = conns[i] };
        xioctl(DRM_IOCTL_MODE_GETCONNECTOR, &gc, "GETCONNECTOR");
        if (gc.connection != 1 || !gc.count_modes) continue;
        struct drm_mode_modeinfo modes[gc.count_modes];
        gc.modes_ptr = (uintptr_t)modes; gc.count_props = gc.count_encoders = 0;
        xioctl(DRM_IOCTL_MODE_GETCONNECTOR, &gc, "GETCONNECTOR");
        for (uint32_t m = 0; m < gc.count_modes; m++)
            if (modes[m].hdisplay == want_w && modes[m].vdisplay == want_h) { mode = modes[m]; connector = conns[i]; break; }
    }
    if (!connector) die("no connected connector offers %s", size);
    uint32_t crtc = crtcs[0];                             // vkms: one CRTC, index 0
    struct plane planes[32];
    uint32_t n = planes_of_card(planes, 32);
    int primary = -1, overlay = -1;
    for (uint32_t i = 0; i < n; i++) {
        if (!(planes[i].possible_crtcs & 1)) continue;
        if (planes[i].type == PRIMARY && primary < 0) primary = (int)i;
        if (planes[i].type == OVERLAY && overlay < 0 && takes(&planes[i], DRM_FORMAT_XRGB8888)) overlay = (int)i;
    }
    if (primary < 0 || overlay < 0) die("no primary or no XRGB8888 overlay plane for CRTC 0%s", "");
    // the overlay at a CRTC rectangle off every edge, from a SRC rectangle off its buffer's origin
    uint32_t ow = (uint32_t)want_w - 200, oh = (uint32_t)want_h - 170, cx = 100, cy = 60, sx = 20, sy = 30;
    uint32_t primary_fb = pattern_fb(want_w, want_h, primary_colour), overlay_fb = pattern_fb(ow + sx + 7, oh + sy + 5, overlay_colour);
    struct drm_mode_create_blob blob = { .data = (uintptr_t)&mode, .length = sizeof mode };
    xioctl(DRM_IOCTL_MODE_CREATEPROPBLOB, &blob, "CREATEPROPBLOB");
    uint32_t pp = planes[primary].id, op = planes[overlay].id;
    struct { uint32_t obj, type; const char *name; uint64_t value; } set[] = {
        {connector, DRM_MODE_OBJECT_CONNECTOR, "CRTC_ID", crtc},
        {crtc, DRM_MODE_OBJECT_CRTC, "MODE_ID", blob.blob_id}, {crtc, DRM_MODE_OBJECT_CRTC, "ACTIVE", 1},
        {pp, DRM_MODE_OBJECT_PLANE, "FB_ID", primary_fb}, {pp, DRM_MODE_OBJECT_PLANE, "CRTC_ID", crtc},
        {pp, DRM_MODE_OBJECT_PLANE, "CRTC_X", 0}, {pp, DRM_MODE_OBJECT_PLANE, "CRTC_Y", 0},
        {pp, DRM_MODE_OBJECT_PLANE, "CRTC_W", (uint64_t)want_w}, {pp, DRM_MODE_OBJECT_PLANE, "CRTC_H", (uint64_t)want_h},
        {pp, DRM_MODE_OBJECT_PLANE, "SRC_X", 0}, {pp, DRM_MODE_OBJECT_PLANE, "SRC_Y", 0},
        {pp, DRM_MODE_OBJECT_PLANE, "SRC_W", (uint64_t)want_w << 16}, {pp, DRM_MODE_OBJECT_PLANE, "SRC_H", (uint64_t)want_h << 16},
        {op, DRM_MODE_OBJECT_PLANE, "FB_ID", overlay_fb}, {op, DRM_MODE_OBJECT_PLANE, "CRTC_ID", crtc},
        {op, DRM_MODE_OBJECT_PLANE, "CRTC_X", cx}, {op, DRM_MODE_OBJECT_PLANE, "CRTC_Y", cy},
        {op, DRM_MODE_OBJECT_PLANE, "CRTC_W", ow}, {op, DRM_MODE_OBJECT_PLANE, "CRTC_H", oh},
        {op, DRM_MODE_OBJECT_PLANE, "SRC_X", (uint64_t)sx << 16}, {op, DRM_MODE_OBJECT_PLANE, "SRC_Y", (uint64_t)sy << 16},
        {op, DRM_MODE_OBJECT_PLANE, "SRC_W", (uint64_t)ow << 16}, {op, DRM_MODE_OBJECT_PLANE, "SRC_H", (uint64_t)oh << 16}};
    enum { N = sizeof set / sizeof set[0] };
    uint32_t objs[N], counts[N], props[N]; uint64_t values[N];
    uint32_t nobjs = 0;
    for (uint32_t i = 0; i < N; i++) {                    // grouped by object, in the order listed
        if (!nobjs || objs[nobjs - 1] != set[i].obj) { objs[nobjs] = set[i].obj; counts[nobjs++] = 0; }
        counts[nobjs - 1]++;
        props[i] = prop_id(set[i].obj, set[i].type, set[i].name); values[i] = set[i].value;
    }
    struct drm_mode_atomic commit = { .flags = DRM_MODE_ATOMIC_ALLOW_MODESET, .count_objs = nobjs, .objs_ptr = (uintptr_t)objs,
                                      .count_props_ptr = (uintptr_t)counts, .props_ptr = (uintptr_t)props,
                                      .prop_values_ptr = (uintptr_t)values };
    xioctl(DRM_IOCTL_MODE_ATOMIC, &commit, "ATOMIC commit of the two patterns");
    struct composed c;
    if (compose(&c) != 0) die("the overlay plane is off right after the commit that put it on%s", "");
    uint64_t wrong = 0; int fx = -1, fy = -1;
    for (int y = 0; y < c.h; y++)
        for (int x = 0; x < c.w; x++) {
            int in = x >= (int)cx && x < (int)(cx + ow) && y >= (int)cy && y < (int)(cy + oh);
            uint32_t v = in ? overlay_colour(x - cx + sx, y - cy + sy) : primary_colour(x, y);
            const uint8_t *p = c.rgb + ((size_t)y * c.w + x) * 3;
            if (p[0] != (v >> 16 & 255) || p[1] != (v >> 8 & 255) || p[2] != (v & 255)) { if (!wrong++) { fx = x; fy = y; } }
        }
    printf("@@PLANESHOT_SELFTEST %s: %s; %llu of %d pixels wrong", wrong ? "FAIL" : "ok", c.summary, (unsigned long long)wrong, c.w * c.h);
    if (wrong) printf(", the first at (%d,%d)", fx, fy);
    printf("\n");
    fflush(stdout);
    return wrong ? 1 : 0;                                // closing the card gives master up and removes both framebuffers
}

int main(int argc, char **argv) {
    if (argc > 2 && !strcmp(argv[1], "--card")) { card = argv[2]; argv += 2; argc -= 2; }
    if (argc < 2 || (strcmp(argv[1], "list") && ((strcmp(argv[1], "shot") && strcmp(argv[1], "selftest") && strcmp(argv[1], "watch"))
                                                 || argc != 3))) {
        fprintf(stderr, "usage: planeshot [--card /dev/dri/cardN] list | shot OUT.ppm | watch MS | selftest WxH\n"); return 1;
    }
    fd = open(card, O_RDWR | O_CLOEXEC);
    if (fd < 0) die("cannot open %s", card);
    struct drm_set_client_cap cap = { .capability = DRM_CLIENT_CAP_UNIVERSAL_PLANES, .value = 1 };
    xioctl(DRM_IOCTL_SET_CLIENT_CAP, &cap, "SET_CLIENT_CAP UNIVERSAL_PLANES");
    cap = (struct drm_set_client_cap){ .capability = DRM_CLIENT_CAP_ATOMIC, .value = 1 };
    xioctl(DRM_IOCTL_SET_CLIENT_CAP, &cap, "SET_CLIENT_CAP ATOMIC (the planes' FB_ID, CRTC_* and SRC_* properties)");
    return !strcmp(argv[1], "list") ? list() : !strcmp(argv[1], "shot") ? shot(argv[2])
         : !strcmp(argv[1], "watch") ? watch(argv[2]) : selftest(argv[2]);
}
