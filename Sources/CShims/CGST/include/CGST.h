#pragma once
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/// GStreamer reached through dlopen on the first video clip, so a frame that never shows one
/// does not map libgstreamer, GLib and the codec plugins. No GStreamer header is used: the
/// -dev package would add GLib's whole tree to every build root (the arm64 cross sysroot
/// included) for a dozen functions, so the shim declares the few entry points and the one
/// struct it needs (GstMapInfo, unchanged since 1.0) itself. The GLib/GObject functions are
/// looked up on the same handle: dlsym searches the library's dependencies too.

/// Loads libgstreamer ("libgstreamer-1.0.so.0"), looks up its functions and initialises
/// GStreamer, once per process; later calls return the first answer. False, with the reason
/// in `error`, when the library, one of its functions or gst_init_check fails.
bool cgst_load(char *error, size_t error_size);

/// Whether GStreamer has the element `factory` ("alsasink"); cgst_load must have returned true.
bool cgst_has_element(const char *factory);

/// A clip's first frame and what the stream says about the clip.
struct cgst_poster {
    /// BGRx rows (XRGB8888 in memory on little-endian), `stride` bytes apart, malloc'ed: the
    /// caller frees them with free().
    uint8_t *pixels;
    int width, height, stride;
    /// The clip's size as displayed (after its orientation tag and pixel aspect ratio), before
    /// any scaling.
    int natural_width, natural_height;
    /// Nanoseconds; -1 when the container does not say.
    int64_t duration_ns;
};

/// Prerolls the clip at `path` (a NUL-terminated file name: bytes, not necessarily UTF-8) with
/// audio and subtitles off, and copies out its first frame, scaled down to fit inside
/// max_width x max_height keeping its shape (0 for either: the natural size). Waits at most
/// `timeout_ms` for the first frame, so a damaged or endless file fails instead of hanging.
/// Thread-safe: each call builds and tears down its own pipeline. False with GStreamer's own
/// message in `error` (cgst_load must have returned true first).
bool cgst_read_poster(const char *path, int max_width, int max_height, int timeout_ms,
                      struct cgst_poster *poster, char *error, size_t error_size);

/// A clip playing: its own pipeline and streaming threads, frames taken one at a time.
struct cgst_player;

/// The YUV layouts a player's frames come in.
enum cgst_layout { CGST_I420 = 0, CGST_NV12 = 1 };
/// The matrix a frame's YUV values were encoded with.
enum cgst_matrix { CGST_BT601 = 0, CGST_BT709 = 1, CGST_BT2020 = 2 };

/// A frame the player decoded, as the decoder gave it: planar YUV 4:2:0 (I420 or NV12, about
/// 1.5 bytes a pixel), GStreamer's own buffer mapped for reading, no copy. Valid until
/// cgst_frame_release(held).
struct cgst_frame {
    enum cgst_layout layout;
    /// Y, then U and V (I420) or the interleaved UV plane (NV12, planes[2] NULL).
    uint8_t *planes[3];
    int strides[3];
    void *held;
    int width, height;
    enum cgst_matrix matrix;
    bool full_range;
    /// Where the clip is, in nanoseconds; -1 when GStreamer cannot say.
    int64_t position_ns;
};

/// Opens the clip at `path` with `demuxer` (qtdemux, matroskademux), its frames scaled to fit
/// inside max_width x max_height (never up), and prerolls it paused, waiting at most `timeout_ms`
/// (per opening). A clip tagged as rotated (a phone held upright) is opened again with the
/// rotation applied, so its frames come upright. With `sound_device` (an ALSA device name; NULL:
/// muted) a clip that has an audio stream is opened again with it playing there; when that
/// fails the clip plays muted and `sound_problem` says why ("" otherwise). `decoder_threads` > 0
/// limits a libav video decoder's frame threads (0: GStreamer's default). NULL with the reason in
/// `error` (cgst_load must have returned true first).
struct cgst_player *cgst_player_open(const char *path, const char *demuxer, int serial, int max_width, int max_height,
                                     const char *sound_device, int decoder_threads, int timeout_ms, char *sound_problem,
                                     size_t sound_problem_size, char *error, size_t error_size);

/// Whether the player's sound goes to ALSA.
bool cgst_player_plays_sound(const struct cgst_player *player);

/// The frame threads its libav video decoder took when `decoder_threads` limited them; -1 when
/// none was limited (no limit asked, or another decoder).
int cgst_player_decoder_threads(const struct cgst_player *player);

/// Plays or pauses; false when GStreamer refuses at once (errors later reach cgst_player_pull).
bool cgst_player_set_playing(struct cgst_player *player, bool playing);

/// Waits at most `timeout_ms` for the next frame. 1: a frame in `frame`; 0: none in time (paused,
/// or the clip ended and was sent back to its start); -1: the stream failed, the reason in
/// `error`. One thread at a time may pull; another may play, pause or read the duration.
int cgst_player_pull(struct cgst_player *player, int timeout_ms, struct cgst_frame *frame, char *error,
                     size_t error_size);

/// Gives a pulled frame's buffer back to GStreamer (any thread, also after the player closed).
void cgst_frame_release(void *held);

/// The clip's length in nanoseconds; -1 when the container does not say.
int64_t cgst_player_duration(const struct cgst_player *player);

/// Stops the pipeline and frees it (NULL is allowed). No pull may be running.
void cgst_player_close(struct cgst_player *player);
