// drmhold: another DRM master on /dev/dri/card0, for the fault stage (faults-driver.sh).
//   drmhold hold RRGGBB        become master (the first opener of a card with no master is one),
//                              show a flat colour on the first connected screen, keep it until
//                              SIGTERM (closing the card gives master up and removes the picture)
//   drmhold steal PID RRGGBB   take master from process PID, which holds it: a second opener
//                              cannot (SET_MASTER answers EBUSY while a master exists) and
//                              DROP_MASTER only works on the master's own open file, so take a
//                              copy of PID's card descriptor with pidfd_getfd(2) (root), drop
//                              master through it, become master on our own descriptor, show the
//                              colour, keep it until SIGTERM
// Prints "@@DRMHOLD ..." lines: what the kernel answered at each step.
// Raw ioctls (no libdrm) so that a static build needs nothing in the guest.
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>
#include <drm.h>
#include <drm_mode.h>

static const char *card = "/dev/dri/card0";

static int say_ioctl(int fd, unsigned long request, void *arg, const char *what) {
    int r = ioctl(fd, request, arg);
    printf("@@DRMHOLD %s -> %s\n", what, r == 0 ? "ok" : strerror(errno));
    fflush(stdout);
    return r;
}

// The first connected connector, its preferred (else first) mode and a CRTC for it.
static int pick_output(int fd, uint32_t *connector, uint32_t *crtc, struct drm_mode_modeinfo *mode) {
    struct drm_mode_card_res res = {0};
    if (ioctl(fd, DRM_IOCTL_MODE_GETRESOURCES, &res)) return -1;
    uint32_t conns[res.count_connectors], crtcs[res.count_crtcs], encs[res.count_encoders];
    res.connector_id_ptr = (uintptr_t)conns; res.crtc_id_ptr = (uintptr_t)crtcs; res.encoder_id_ptr = (uintptr_t)encs;
    res.count_fbs = 0;
    if (ioctl(fd, DRM_IOCTL_MODE_GETRESOURCES, &res) || res.count_crtcs == 0) return -1;
    for (uint32_t i = 0; i < res.count_connectors; i++) {
        struct drm_mode_get_connector c = { .connector_id = conns[i] };
        if (ioctl(fd, DRM_IOCTL_MODE_GETCONNECTOR, &c) || c.connection != 1 || c.count_modes == 0) continue;
        struct drm_mode_modeinfo modes[c.count_modes];
        c.modes_ptr = (uintptr_t)modes; c.count_props = 0; c.count_encoders = 0;
        if (ioctl(fd, DRM_IOCTL_MODE_GETCONNECTOR, &c)) continue;
        *mode = modes[0];
        for (uint32_t m = 0; m < c.count_modes; m++) if (modes[m].type & DRM_MODE_TYPE_PREFERRED) { *mode = modes[m]; break; }
        *connector = conns[i];
        *crtc = crtcs[0];
        if (c.encoder_id) {
            struct drm_mode_get_encoder e = { .encoder_id = c.encoder_id };
            if (!ioctl(fd, DRM_IOCTL_MODE_GETENCODER, &e) && e.crtc_id) *crtc = e.crtc_id;
        }
        return 0;
    }
    return -1;
}

// A dumb buffer filled with `rgb`, set as the scanout of the first connected screen.
static int show_colour(int fd, uint32_t rgb) {
    uint32_t connector, crtc;
    struct drm_mode_modeinfo mode;
    if (pick_output(fd, &connector, &crtc, &mode)) { printf("@@DRMHOLD no connected screen\n"); return -1; }
    struct drm_mode_create_dumb dumb = { .width = mode.hdisplay, .height = mode.vdisplay, .bpp = 32 };
    if (ioctl(fd, DRM_IOCTL_MODE_CREATE_DUMB, &dumb)) { perror("CREATE_DUMB"); return -1; }
    struct drm_mode_fb_cmd fb = { .width = dumb.width, .height = dumb.height, .pitch = dumb.pitch, .bpp = 32,
                                  .depth = 24, .handle = dumb.handle };
    if (ioctl(fd, DRM_IOCTL_MODE_ADDFB, &fb)) { perror("ADDFB"); return -1; }
    struct drm_mode_map_dumb map = { .handle = dumb.handle };
    if (ioctl(fd, DRM_IOCTL_MODE_MAP_DUMB, &map)) { perror("MAP_DUMB"); return -1; }
    uint32_t *px = mmap(0, dumb.size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, map.offset);
    if (px == MAP_FAILED) { perror("mmap"); return -1; }
    for (uint64_t i = 0; i < dumb.size / 4; i++) px[i] = rgb;
    struct drm_mode_crtc set = { .crtc_id = crtc, .fb_id = fb.fb_id, .set_connectors_ptr = (uintptr_t)&connector,
                                 .count_connectors = 1, .mode = mode, .mode_valid = 1 };
    char what[80];
    snprintf(what, sizeof what, "SETCRTC %ux%u colour %06x", mode.hdisplay, mode.vdisplay, rgb);
    if (say_ioctl(fd, DRM_IOCTL_MODE_SETCRTC, &set, what)) return -1;
    struct drm_mode_fb_dirty_cmd dirty = { .fb_id = fb.fb_id };   // virtio-gpu: make sure it shows
    ioctl(fd, DRM_IOCTL_MODE_DIRTYFB, &dirty);
    return 0;
}

// The descriptor number of `pid`'s open card0, from /proc/PID/fd.
static int card_fd_of(int pid) {
    char dir[64], link[96], target[PATH_MAX];
    snprintf(dir, sizeof dir, "/proc/%d/fd", pid);
    DIR *d = opendir(dir);
    struct dirent *e;
    int found = -1;
    while (d && (e = readdir(d))) {
        snprintf(link, sizeof link, "%s/%.20s", dir, e->d_name);
        ssize_t n = readlink(link, target, sizeof target - 1);
        if (n > 0) { target[n] = 0; if (!strcmp(target, card)) { found = atoi(e->d_name); break; } }
    }
    if (d) closedir(d);
    return found;
}

int main(int argc, char **argv) {
    if (argc < 3) { fprintf(stderr, "usage: drmhold hold RRGGBB | drmhold steal PID RRGGBB\n"); return 64; }
    setvbuf(stdout, 0, _IOLBF, 0);
    int steal = !strcmp(argv[1], "steal");
    uint32_t rgb = (uint32_t)strtoul(argv[steal ? 3 : 2], 0, 16);
    int fd = open(card, O_RDWR | O_CLOEXEC);
    if (fd < 0) { perror(card); return 1; }
    if (steal) {
        int pid = atoi(argv[2]);
        // What any second program gets while PID is master.
        if (say_ioctl(fd, DRM_IOCTL_SET_MASTER, 0, "SET_MASTER on a second open file while PID is master") == 0) {
            printf("@@DRMHOLD unexpected: became master without taking it\n");
        }
        say_ioctl(fd, DRM_IOCTL_DROP_MASTER, 0, "DROP_MASTER on our own (non-master) open file");
        int theirs = card_fd_of(pid);
        int pidfd = (int)syscall(SYS_pidfd_open, pid, 0);
        int copy = pidfd >= 0 && theirs >= 0 ? (int)syscall(SYS_pidfd_getfd, pidfd, theirs, 0) : -1;
        printf("@@DRMHOLD pidfd_getfd pid %d fd %d -> %s\n", pid, theirs, copy >= 0 ? "ok" : strerror(errno));
        if (copy < 0) return 1;
        if (say_ioctl(copy, DRM_IOCTL_DROP_MASTER, 0, "DROP_MASTER through a copy of PID's open file")) return 1;
        close(copy);
        close(pidfd);
        if (say_ioctl(fd, DRM_IOCTL_SET_MASTER, 0, "SET_MASTER on our own open file")) return 1;
    } else {
        // The first opener of a card without a master becomes master: check by asking again.
        if (say_ioctl(fd, DRM_IOCTL_SET_MASTER, 0, "SET_MASTER (already master as first opener)")) return 1;
    }
    if (show_colour(fd, rgb)) return 1;
    printf("@@DRMHOLD holding master until SIGTERM\n");
    for (;;) pause();   // SIGTERM's default action ends the process: the kernel drops master
}
