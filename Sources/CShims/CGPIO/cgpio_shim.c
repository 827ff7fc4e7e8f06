#include "CGPIO.h"
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>
#include <linux/gpio.h>

static int retry_ioctl(int fd, unsigned long request, void *arg) {
    int r;
    do { r = ioctl(fd, request, arg); } while (r == -1 && errno == EINTR);
    return r == -1 ? -errno : r;
}

int cgpio_chip_info(int chip_fd, char name[32], char label[32], uint32_t *lines) {
    struct gpiochip_info info;
    memset(&info, 0, sizeof info);
    int r = retry_ioctl(chip_fd, GPIO_GET_CHIPINFO_IOCTL, &info);
    if (r < 0) return r;
    memcpy(name, info.name, 32);
    name[31] = 0;
    memcpy(label, info.label, 32);
    label[31] = 0;
    *lines = info.lines;
    return 0;
}

int cgpio_line_info(int chip_fd, uint32_t offset, int *used, char consumer[32]) {
    struct gpio_v2_line_info info;
    memset(&info, 0, sizeof info);
    info.offset = offset;
    int r = retry_ioctl(chip_fd, GPIO_V2_GET_LINEINFO_IOCTL, &info);
    if (r < 0) return r;
    *used = (info.flags & GPIO_V2_LINE_FLAG_USED) != 0;
    memcpy(consumer, info.consumer, 32);
    consumer[31] = 0;
    return 0;
}

int cgpio_request_input(int chip_fd, uint32_t offset, int active_low, const char *consumer) {
    struct gpio_v2_line_request request;
    memset(&request, 0, sizeof request);
    request.offsets[0] = offset;
    request.num_lines = 1;
    strncpy(request.consumer, consumer, sizeof request.consumer - 1);
    request.config.flags = GPIO_V2_LINE_FLAG_INPUT | GPIO_V2_LINE_FLAG_EDGE_RISING | GPIO_V2_LINE_FLAG_EDGE_FALLING
        | (active_low ? GPIO_V2_LINE_FLAG_ACTIVE_LOW : 0);
    int r = retry_ioctl(chip_fd, GPIO_V2_GET_LINE_IOCTL, &request);
    if (r < 0) return r;
    int fd = request.fd;
    // The kernel makes the line descriptor close-on-exec; the event loop needs it non-blocking.
    int flags = fcntl(fd, F_GETFL);
    if (flags == -1 || fcntl(fd, F_SETFL, flags | O_NONBLOCK) == -1) {
        int err = errno;
        close(fd);
        return -err;
    }
    return fd;
}

int cgpio_line_value(int line_fd) {
    struct gpio_v2_line_values values;
    memset(&values, 0, sizeof values);
    values.mask = 1;
    int r = retry_ioctl(line_fd, GPIO_V2_LINE_GET_VALUES_IOCTL, &values);
    if (r < 0) return r;
    return (values.bits & 1) ? 1 : 0;
}

int cgpio_read_edge(int line_fd, uint64_t *timestamp_ns) {
    struct gpio_v2_line_event event;
    ssize_t n;
    do { n = read(line_fd, &event, sizeof event); } while (n == -1 && errno == EINTR);
    if (n == -1) return -errno;
    if (n != (ssize_t)sizeof event) return -EIO;
    *timestamp_ns = event.timestamp_ns;
    return event.id == GPIO_V2_LINE_EVENT_RISING_EDGE ? 1 : 0;
}
