#pragma once
// The kernel's GPIO character device, v2 uAPI (linux/gpio.h): the ioctls and their structs, which
// Swift cannot call (variadic ioctl, unions). This is the stable kernel ABI libgpiod wraps; using
// it directly works alike on Debian 12 (libgpiod 1.6, v1 API) and 13 (libgpiod 2.2, v2 API).
#include <stdint.h>

/// GPIO_GET_CHIPINFO_IOCTL: the chip's name, label and line count; 0 or -errno.
int cgpio_chip_info(int chip_fd, char name[32], char label[32], uint32_t *lines);

/// GPIO_V2_GET_LINEINFO_IOCTL: whether line `offset` is held by someone, and by whom; 0 or -errno.
int cgpio_line_info(int chip_fd, uint32_t offset, int *used, char consumer[32]);

/// GPIO_V2_GET_LINE_IOCTL: line `offset` as an input reporting both edges, in logical levels
/// (`active_low`: low is active); the line's descriptor (non-blocking, close-on-exec) or -errno.
int cgpio_request_input(int chip_fd, uint32_t offset, int active_low, const char *consumer);

/// GPIO_V2_LINE_GET_VALUES_IOCTL: 1 active, 0 inactive, or -errno.
int cgpio_line_value(int line_fd);

/// Reads one edge event from a requested line: 1 it became active, 0 inactive, -EAGAIN when
/// none is queued, other -errno on failure. `timestamp_ns` gets the kernel's time of the edge.
int cgpio_read_edge(int line_fd, uint64_t *timestamp_ns);
