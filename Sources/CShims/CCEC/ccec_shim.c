#include "CCEC.h"
#include <errno.h>
#include <string.h>
#include <sys/ioctl.h>
#include <linux/cec.h>

static int retry_ioctl(int fd, unsigned long request, void *arg) {
    int r;
    do { r = ioctl(fd, request, arg); } while (r == -1 && errno == EINTR);
    return r == -1 ? -errno : r;
}

int ccec_caps(int fd, char driver[32], char name[32], uint32_t *available_log_addrs, uint32_t *capabilities) {
    struct cec_caps caps;
    memset(&caps, 0, sizeof caps);
    int r = retry_ioctl(fd, CEC_ADAP_G_CAPS, &caps);
    if (r < 0) return r;
    memcpy(driver, caps.driver, 32);
    driver[31] = 0;
    memcpy(name, caps.name, 32);
    name[31] = 0;
    *available_log_addrs = caps.available_log_addrs;
    *capabilities = caps.capabilities;
    return 0;
}

int ccec_physical_address(int fd, uint16_t *address) {
    __u16 pa = CEC_PHYS_ADDR_INVALID;
    int r = retry_ioctl(fd, CEC_ADAP_G_PHYS_ADDR, &pa);
    if (r < 0) return r;
    *address = pa;
    return 0;
}

int ccec_logical_address(int fd, uint8_t *address, uint8_t *configured) {
    struct cec_log_addrs addrs;
    memset(&addrs, 0, sizeof addrs);
    int r = retry_ioctl(fd, CEC_ADAP_G_LOG_ADDRS, &addrs);
    if (r < 0) return r;
    *configured = addrs.num_log_addrs;
    *address = addrs.log_addr_mask ? addrs.log_addr[0] : CEC_LOG_ADDR_INVALID;
    return 0;
}

int ccec_claim_playback(int fd, const char *osd_name) {
    struct cec_log_addrs addrs;
    memset(&addrs, 0, sizeof addrs);
    // Another configuration (a previous run, cec-ctl) makes S_LOG_ADDRS fail with EBUSY: clear it.
    int r = retry_ioctl(fd, CEC_ADAP_S_LOG_ADDRS, &addrs);
    if (r < 0) return r;
    memset(&addrs, 0, sizeof addrs);
    addrs.cec_version = CEC_OP_CEC_VERSION_1_4;
    addrs.vendor_id = CEC_VENDOR_ID_NONE;
    addrs.flags = CEC_LOG_ADDRS_FL_ALLOW_UNREG_FALLBACK;
    strncpy(addrs.osd_name, osd_name, sizeof addrs.osd_name - 1);
    addrs.num_log_addrs = 1;
    addrs.log_addr_type[0] = CEC_LOG_ADDR_TYPE_PLAYBACK;
    addrs.primary_device_type[0] = CEC_OP_PRIM_DEVTYPE_PLAYBACK;
    addrs.all_device_types[0] = CEC_OP_ALL_DEVTYPE_PLAYBACK;
    return retry_ioctl(fd, CEC_ADAP_S_LOG_ADDRS, &addrs);
}

int ccec_release(int fd) {
    struct cec_log_addrs addrs;
    memset(&addrs, 0, sizeof addrs);
    return retry_ioctl(fd, CEC_ADAP_S_LOG_ADDRS, &addrs);
}

int ccec_become_follower(int fd) {
    __u32 mode = CEC_MODE_INITIATOR | CEC_MODE_FOLLOWER;
    return retry_ioctl(fd, CEC_S_MODE, &mode);
}

int ccec_drm_connector(int fd, uint32_t *card, uint32_t *connector_id) {
#ifdef CEC_ADAP_G_CONNECTOR_INFO
    struct cec_connector_info info;
    memset(&info, 0, sizeof info);
    int r = retry_ioctl(fd, CEC_ADAP_G_CONNECTOR_INFO, &info);
    if (r < 0) return r;
    if (info.type != CEC_CONNECTOR_TYPE_DRM) return -ENOENT;
    *card = info.drm.card_no;
    *connector_id = info.drm.connector_id;
    return 0;
#else
    (void)fd; (void)card; (void)connector_id;
    return -ENOTTY;
#endif
}

int ccec_transmit(int fd, const uint8_t *bytes, uint32_t length, uint8_t reply, uint32_t timeout_ms,
                  uint32_t *sequence, uint8_t *tx_status, uint8_t *rx_status, uint8_t reply_bytes[16], uint32_t *reply_length) {
    if (length < 1 || length > CEC_MAX_MSG_SIZE) return -EINVAL;
    struct cec_msg msg;
    memset(&msg, 0, sizeof msg);
    memcpy(msg.msg, bytes, length);
    msg.len = length;
    msg.reply = reply;
    msg.timeout = reply ? timeout_ms : 0;
    int r = retry_ioctl(fd, CEC_TRANSMIT, &msg);
    if (r < 0) return r;
    *sequence = msg.sequence;
    *tx_status = msg.tx_status;
    *rx_status = msg.rx_status;
    memcpy(reply_bytes, msg.msg, 16);
    *reply_length = msg.len;
    return 0;
}

int ccec_receive(int fd, uint8_t bytes[16], uint32_t *sequence, uint8_t *tx_status, uint8_t *rx_status) {
    struct cec_msg msg;
    memset(&msg, 0, sizeof msg);
    int r = retry_ioctl(fd, CEC_RECEIVE, &msg);
    if (r < 0) return r;
    memcpy(bytes, msg.msg, 16);
    *sequence = msg.sequence;
    *tx_status = msg.tx_status;
    *rx_status = msg.rx_status;
    return (int)msg.len;
}

int ccec_event(int fd, uint16_t *physical_address, uint16_t *log_addr_mask) {
    struct cec_event event;
    memset(&event, 0, sizeof event);
    int r = retry_ioctl(fd, CEC_DQEVENT, &event);
    if (r < 0) return r;
    switch (event.event) {
    case CEC_EVENT_STATE_CHANGE:
        *physical_address = event.state_change.phys_addr;
        *log_addr_mask = event.state_change.log_addr_mask;
        return 1;
    case CEC_EVENT_LOST_MSGS:
        return 2;
    default:
        return 0;
    }
}
