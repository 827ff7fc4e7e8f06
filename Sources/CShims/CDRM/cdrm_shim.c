#include "CDRM.h"
#include <errno.h>
#include <sys/ioctl.h>

// ioctl is variadic; one typed wrapper keeps Swift away from it.
int cdrm_fb_get_info(int fd, struct fb_var_screeninfo *var, struct fb_fix_screeninfo *fix) {
    if (ioctl(fd, FBIOGET_VSCREENINFO, var) < 0) return -errno;
    if (ioctl(fd, FBIOGET_FSCREENINFO, fix) < 0) return -errno;
    return 0;
}
