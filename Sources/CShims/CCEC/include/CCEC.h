#pragma once
// The kernel's HDMI-CEC API (linux/cec.h, /dev/cecN): the ioctls and their structs, which Swift
// cannot call (variadic ioctl, unions). The kernel API serves every HDMI port on a Pi under full
// KMS (one device per port) without libcec; this shim is all that is needed of it.
#include <stdint.h>

/// CEC_ADAP_G_CAPS: the driver's and adapter's names, how many logical addresses it can claim,
/// its CEC_CAP_* flags; 0 or -errno.
int ccec_caps(int fd, char driver[32], char name[32], uint32_t *available_log_addrs, uint32_t *capabilities);

/// CEC_ADAP_G_PHYS_ADDR: the physical address (0xffff: none, no HDMI sink); 0 or -errno.
int ccec_physical_address(int fd, uint16_t *address);

/// CEC_ADAP_G_LOG_ADDRS: the first claimed logical address (0xf: none claimed yet) and the
/// number configured (0: nothing asked for); 0 or -errno.
int ccec_logical_address(int fd, uint8_t *address, uint8_t *configured);

/// CEC_ADAP_S_LOG_ADDRS: clears what is configured, then claims one Playback device named
/// `osd_name` (CEC 1.4, no vendor id, falls back to Unregistered). On a non-blocking descriptor
/// the claim finishes later (a state-change event says so); 0 or -errno.
int ccec_claim_playback(int fd, const char *osd_name);

/// CEC_ADAP_S_LOG_ADDRS with none: gives the logical addresses back; 0 or -errno.
int ccec_release(int fd);

/// CEC_S_MODE: this descriptor as initiator and follower (it receives the messages the kernel
/// does not answer itself: Standby, Request Active Source, Report Power Status...); 0 or -errno.
int ccec_become_follower(int fd);

/// CEC_ADAP_G_CONNECTOR_INFO (kernel >= 5.10): the DRM card and connector this adapter belongs
/// to; 0, -ENOTTY (older kernel), -ENOENT (not tied to a DRM connector) or -errno.
int ccec_drm_connector(int fd, uint32_t *card, uint32_t *connector_id);

/// CEC_TRANSMIT of `length` bytes (header byte first). `reply` (0: none) is the opcode the
/// kernel waits up to `timeout_ms` for. On a non-blocking descriptor the result arrives later
/// through ccec_receive with the same `sequence`; on a blocking one it is in the out parameters.
int ccec_transmit(int fd, const uint8_t *bytes, uint32_t length, uint8_t reply, uint32_t timeout_ms,
                  uint32_t *sequence, uint8_t *tx_status, uint8_t *rx_status, uint8_t reply_bytes[16], uint32_t *reply_length);

/// CEC_RECEIVE (non-blocking): a message received, or a transmit's result (`sequence` != 0).
/// Returns the message's length, -EAGAIN when none is queued, other -errno on failure.
int ccec_receive(int fd, uint8_t bytes[16], uint32_t *sequence, uint8_t *tx_status, uint8_t *rx_status);

/// CEC_DQEVENT (non-blocking): 1 state change (`physical_address`, `log_addr_mask` set),
/// 2 messages lost, 0 another event, -EAGAIN none queued, other -errno.
int ccec_event(int fd, uint16_t *physical_address, uint16_t *log_addr_mask);
