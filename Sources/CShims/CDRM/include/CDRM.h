#pragma once
// What Swift cannot import from libdrm and the fbdev headers: function-like macros and ioctls.
#include <stdint.h>
#include <xf86drm.h>
#include <xf86drmMode.h>
#include <drm_fourcc.h>
#include <linux/fb.h>

/// DRM_FORMAT_XRGB8888 is built by the fourcc_code() macro.
static const uint32_t CDRM_FORMAT_XRGB8888 = DRM_FORMAT_XRGB8888;

/// The drmEventContext version this code fills in (page_flip_handler only).
static const int CDRM_EVENT_CONTEXT_VERSION = 2;

/// FBIOGET_VSCREENINFO + FBIOGET_FSCREENINFO on an fbdev node; 0 or -errno.
int cdrm_fb_get_info(int fd, struct fb_var_screeninfo *var, struct fb_fix_screeninfo *fix);
