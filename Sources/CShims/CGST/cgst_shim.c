#include "CGST.h"
#include <CLazyLibrary.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

// GStreamer's and GLib's types as this shim uses them, declared here instead of taken from the
// -dev headers (see CGST.h). Objects are opaque; only GError and GstMapInfo are read, and both
// have kept their layout since GLib 2.0 and GStreamer 1.0.
typedef int gboolean;
typedef struct {
    uint32_t domain;
    int code;
    char *message;
} GError;
typedef struct {
    void *memory;
    int flags;
    uint8_t *data;
    size_t size;
    size_t maxsize;
    void *user_data[4];
    void *reserved[4];  // GST_PADDING
} GstMapInfo;

enum { GST_STATE_NULL = 1, GST_STATE_PAUSED = 3, GST_STATE_PLAYING = 4 };
enum { GST_STATE_CHANGE_FAILURE = 0, GST_STATE_CHANGE_SUCCESS = 1, GST_STATE_CHANGE_NO_PREROLL = 3 };
enum { GST_MESSAGE_ERROR = 1 << 1, GST_MESSAGE_TAG = 1 << 4 };
enum { GST_FORMAT_TIME = 3 };
enum { GST_MAP_READ = 1 };
enum { GST_SEEK_FLAG_FLUSH = 1 << 0, GST_SEEK_FLAG_KEY_UNIT = 1 << 2 };
// playbin's flags: video only (no audio, no subtitles), and no converters of playsink's own in
// front of ours, which would scale before the frame's natural size could be read.
enum { GST_PLAY_FLAG_VIDEO = 1, GST_PLAY_FLAG_NATIVE_VIDEO = 1 << 6 };

#define CGST_FUNCTIONS(X, V)                                                                       \
    X(gboolean, gst_init_check, (int *argc, char ***argv, GError **error), (argc, argv, error))  \
    V(gst_registry_fork_set_enabled, (gboolean enabled), (enabled))                               \
    X(void *, gst_element_factory_make, (const char *factory, const char *name), (factory, name)) \
    X(void *, gst_element_factory_find, (const char *name), (name))                               \
    X(void *, gst_parse_bin_from_description,                                                     \
      (const char *description, gboolean ghost_unlinked_pads, GError **error),                    \
      (description, ghost_unlinked_pads, error))                                                  \
    X(void *, gst_parse_launch, (const char *description, GError **error), (description, error))   \
    X(gboolean, gst_element_query_position, (void *element, int format, int64_t *position),       \
      (element, format, position))                                                                \
    X(gboolean, gst_element_seek_simple, (void *element, int format, int flags, int64_t position), \
      (element, format, flags, position))                                                         \
    X(char *, gst_filename_to_uri, (const char *filename, GError **error), (filename, error))     \
    X(int, gst_element_set_state, (void *element, int state), (element, state))                  \
    X(int, gst_element_get_state, (void *element, int *state, int *pending, uint64_t timeout),    \
      (element, state, pending, timeout))                                                         \
    X(void *, gst_element_get_bus, (void *element), (element))                                    \
    X(void *, gst_bus_timed_pop_filtered, (void *bus, uint64_t timeout, int types),              \
      (bus, timeout, types))                                                                      \
    V(gst_message_parse_error, (void *message, GError **error, char **debug),                     \
      (message, error, debug))                                                                    \
    X(gboolean, gst_element_query_duration, (void *element, int format, int64_t *duration),       \
      (element, format, duration))                                                                \
    X(void *, gst_bin_get_by_name, (void *bin, const char *name), (bin, name))                    \
    X(void *, gst_element_get_static_pad, (void *element, const char *name), (element, name))     \
    X(void *, gst_pad_get_current_caps, (void *pad), (pad))                                       \
    X(void *, gst_caps_get_structure, (const void *caps, unsigned index), (caps, index))          \
    X(gboolean, gst_structure_get_int, (const void *structure, const char *field, int *value),    \
      (structure, field, value))                                                                  \
    X(gboolean, gst_structure_get_fraction,                                                       \
      (const void *structure, const char *field, int *numerator, int *denominator),               \
      (structure, field, numerator, denominator))                                                 \
    X(const char *, gst_structure_get_string, (const void *structure, const char *field), (structure, field)) \
    V(gst_message_parse_tag, (void *message, void **tag_list), (message, tag_list))               \
    X(const void *, gst_message_get_structure, (void *message), (message))                        \
    X(const char *, gst_structure_get_name, (const void *structure), (structure))                 \
    X(gboolean, gst_tag_list_get_string, (const void *list, const char *tag, char **value),       \
      (list, tag, value))                                                                         \
    X(void *, gst_sample_get_buffer, (void *sample), (sample))                                    \
    X(void *, gst_sample_get_caps, (void *sample), (sample))                                      \
    X(gboolean, gst_buffer_map, (void *buffer, GstMapInfo *info, int flags), (buffer, info, flags)) \
    V(gst_buffer_unmap, (void *buffer, GstMapInfo *info), (buffer, info))                         \
    V(gst_mini_object_unref, (void *object), (object))                                            \
    V(gst_object_unref, (void *object), (object))                                                 \
    X(void *, gst_element_get_factory, (void *element), (element))                                \
    X(char *, gst_object_get_name, (void *object), (object))                                      \
    /* GLib and GObject: not in libgstreamer itself, found through its dependencies */            \
    V(g_object_set, (void *object, const char *first_property, ...), ())                          \
    V(g_object_get, (void *object, const char *first_property, ...), ())                          \
    X(void *, g_object_class_find_property, (void *klass, const char *name), (klass, name))      \
    X(unsigned long, g_signal_connect_data,                                                       \
      (void *instance, const char *signal, void *handler, void *data, void *destroy, int flags),  \
      (instance, signal, handler, data, destroy, flags))                                          \
    V(g_signal_emit_by_name, (void *instance, const char *signal, ...), ())                       \
    V(g_error_free, (GError *error), (error))                                                     \
    V(g_free, (void *memory), (memory))

static struct {
    CGST_FUNCTIONS(CLAZY_POINTER, CLAZY_POINTER_VOID)
} functions;
static const char *const names[] = {CGST_FUNCTIONS(CLAZY_NAME, CLAZY_NAME_VOID)};
static void **const slots[] = {CGST_FUNCTIONS(CLAZY_SLOT, CLAZY_SLOT_VOID)};
static struct clazy_library lazy = CLAZY_LIBRARY("libgstreamer-1.0.so.0", "", names, slots);
#define F functions

static pthread_once_t init_once = PTHREAD_ONCE_INIT;
static char init_error[256];

static void initialise(void) {
    // GStreamer would otherwise start its gst-plugin-scanner program to read new plugins; the
    // kiosk starts no program (SecurityTests), so the registry is read in this process.
    F.gst_registry_fork_set_enabled(0);
    GError *error = NULL;
    if (!F.gst_init_check(NULL, NULL, &error)) {
        snprintf(init_error, sizeof init_error, "gst_init_check failed: %s",
                 error && error->message ? error->message : "no reason given");
        if (error) F.g_error_free(error);
    }
}

bool cgst_load(char *error, size_t error_size) {
    if (!clazy_load_once(&lazy, error, error_size)) return false;
    pthread_once(&init_once, initialise);
    if (init_error[0]) {
        snprintf(error, error_size, "%s", init_error);
        return false;
    }
    return true;
}

bool cgst_has_element(const char *factory) {
    void *found = F.gst_element_factory_find(factory);
    if (found) F.gst_object_unref(found);
    return found != NULL;
}

/// Takes GStreamer's message out of `error` (freeing it), or `fallback` when there is none.
static bool fail(GError *gerror, const char *fallback, char *error, size_t error_size) {
    snprintf(error, error_size, "%s", gerror && gerror->message ? gerror->message : fallback);
    if (gerror) F.g_error_free(gerror);
    return false;
}

/// Where a stream's image-orientation tag goes as the bus is read (NULL: tags are not kept).
struct orientation_note {
    char value[32];
};

/// Whether `message` is a tag message (by its structure's name: GstMessage's layout is not
/// declared here).
static bool message_is_tag(void *message) {
    const void *structure = F.gst_message_get_structure(message);
    const char *name = structure ? F.gst_structure_get_name(structure) : NULL;
    return name && !strcmp(name, "GstMessageTag");
}

/// Keeps a tag message's image-orientation, if it has one.
static void note_orientation(void *message, struct orientation_note *note) {
    void *tags = NULL;
    char *value = NULL;
    F.gst_message_parse_tag(message, &tags);
    if (tags && F.gst_tag_list_get_string(tags, "image-orientation", &value) && value) {
        snprintf(note->value, sizeof note->value, "%s", value);
        F.g_free(value);
    }
    if (tags) F.gst_mini_object_unref(tags);
}

/// The first error the pipeline posted within `wait_ms`, if any. Popping discards the messages
/// it does not ask for, so tags are asked for too when `note` wants the clip's orientation
/// (the sink posts the stream's tags on its way to the first frame).
static bool posted_error(void *bus, int wait_ms, struct orientation_note *note, char *error, size_t error_size) {
    void *message;
    while ((message = F.gst_bus_timed_pop_filtered(bus, (uint64_t)wait_ms * 1000000,
                                                   GST_MESSAGE_ERROR | (note ? GST_MESSAGE_TAG : 0)))) {
        if (note && message_is_tag(message)) {
            note_orientation(message, note);
            F.gst_mini_object_unref(message);
            wait_ms = 0;  // the wait was for an error: what is queued is read without another
            continue;
        }
        GError *gerror = NULL;
        char *debug = NULL;
        F.gst_message_parse_error(message, &gerror, &debug);
        fail(gerror, "the pipeline failed", error, error_size);
        F.g_free(debug);
        F.gst_mini_object_unref(message);
        return true;
    }
    return false;
}

static int64_t now_ms(void) {
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return (int64_t)now.tv_sec * 1000 + now.tv_nsec / 1000000;
}

/// Waits until the pipeline has prerolled, an element reports an error, or `timeout_ms` passes.
/// An error in a streaming thread does not end the state change itself, so the bus is looked
/// at between short waits rather than waiting on the state alone.
/// A failed state change's error message can reach the bus a moment after the change fails.
static const int error_wait_ms = 200;

static bool preroll(void *pipeline, void *bus, int timeout_ms, struct orientation_note *note, char *error,
                    size_t error_size) {
    if (F.gst_element_set_state(pipeline, GST_STATE_PAUSED) == GST_STATE_CHANGE_FAILURE) {
        if (!posted_error(bus, error_wait_ms, note, error, error_size)) snprintf(error, error_size, "the clip cannot be opened");
        return false;
    }
    int64_t deadline = now_ms() + timeout_ms;
    for (;;) {
        // The wait for an error is the loop's pause; the state is then only looked at.
        if (posted_error(bus, 20, note, error, error_size)) return false;
        int state = 0;
        int result = F.gst_element_get_state(pipeline, &state, NULL, 0);
        if (result == GST_STATE_CHANGE_SUCCESS || result == GST_STATE_CHANGE_NO_PREROLL) return true;
        if (result == GST_STATE_CHANGE_FAILURE) {
            if (!posted_error(bus, error_wait_ms, note, error, error_size)) snprintf(error, error_size, "the clip cannot be decoded");
            return false;
        }
        if (now_ms() >= deadline) {
            snprintf(error, error_size, "no frame after %d ms (damaged or unsupported clip)", timeout_ms);
            return false;
        }
    }
}

/// The size of the frames entering the scaler (decoded, oriented), with their pixel aspect ratio.
static void natural_size(void *sink_bin, struct cgst_poster *poster) {
    void *scale = F.gst_bin_get_by_name(sink_bin, "scale");
    if (!scale) return;
    void *pad = F.gst_element_get_static_pad(scale, "sink");
    void *caps = pad ? F.gst_pad_get_current_caps(pad) : NULL;
    if (caps) {
        void *structure = F.gst_caps_get_structure(caps, 0);
        int width = 0, height = 0, par_n = 1, par_d = 1;
        if (structure && F.gst_structure_get_int(structure, "width", &width) &&
            F.gst_structure_get_int(structure, "height", &height)) {
            if (!F.gst_structure_get_fraction(structure, "pixel-aspect-ratio", &par_n, &par_d) || par_n <= 0 || par_d <= 0)
                par_n = par_d = 1;
            poster->natural_width = (int)((int64_t)width * par_n / par_d);
            poster->natural_height = height;
        }
        F.gst_mini_object_unref(caps);
    }
    if (pad) F.gst_object_unref(pad);
    F.gst_object_unref(scale);
}

/// Copies a sample's BGRx frame out into malloc'ed rows (the sample stays the caller's).
static bool copy_sample(void *sample, uint8_t **pixels, int *out_width, int *out_height, int *out_stride,
                        char *error, size_t error_size) {
    bool copied = false;
    int width = 0, height = 0;
    void *caps = F.gst_sample_get_caps(sample);
    void *structure = caps ? F.gst_caps_get_structure(caps, 0) : NULL;
    void *buffer = F.gst_sample_get_buffer(sample);
    GstMapInfo map;
    memset(&map, 0, sizeof map);
    if (!structure || !F.gst_structure_get_int(structure, "width", &width) ||
        !F.gst_structure_get_int(structure, "height", &height) || width <= 0 || height <= 0) {
        snprintf(error, error_size, "the clip's frame has no size");
    } else if (!buffer || !F.gst_buffer_map(buffer, &map, GST_MAP_READ)) {
        snprintf(error, error_size, "the clip's frame cannot be read");
    } else {
        // BGRx rows are 4-byte aligned, so GStreamer's default stride is width * 4; a buffer
        // laid out otherwise is refused rather than read wrongly.
        size_t stride = (size_t)width * 4, bytes = stride * (size_t)height;
        if (map.size < bytes) {
            snprintf(error, error_size, "the clip's frame is %zu bytes, not %dx%d BGRx", map.size, width, height);
        } else if (!(*pixels = malloc(bytes))) {
            snprintf(error, error_size, "out of memory for a %dx%d frame", width, height);
        } else {
            memcpy(*pixels, map.data, bytes);
            *out_width = width;
            *out_height = height;
            *out_stride = (int)stride;
            copied = true;
        }
        F.gst_buffer_unmap(buffer, &map);
    }
    return copied;
}

/// Copies the sink's prerolled frame out into malloc'ed rows.
static bool copy_frame(void *sink_bin, struct cgst_poster *poster, char *error, size_t error_size) {
    void *sink = F.gst_bin_get_by_name(sink_bin, "sink");
    void *sample = NULL;
    if (sink) {
        F.g_object_get(sink, "last-sample", &sample, NULL);
        F.gst_object_unref(sink);
    }
    if (!sample) {
        snprintf(error, error_size, "the clip has no video frame");
        return false;
    }
    bool copied = copy_sample(sample, &poster->pixels, &poster->width, &poster->height, &poster->stride, error, error_size);
    F.gst_mini_object_unref(sample);
    return copied;
}

/// The box caps for videoscale: fit inside max_width x max_height, keeping the shape, never
/// scaling up ("" for no box).
static void box_caps(int max_width, int max_height, char *box, size_t box_size) {
    box[0] = 0;
    if (max_width <= 0 || max_height <= 0) return;
    // A range needs two different ends ([1,1] is refused).
    char width[24], height[24];
    snprintf(width, sizeof width, max_width > 1 ? "[1,%d]" : "%d", max_width);
    snprintf(height, sizeof height, max_height > 1 ? "[1,%d]" : "%d", max_height);
    snprintf(box, box_size, ",width=%s,height=%s", width, height);
}

bool cgst_read_poster(const char *path, int max_width, int max_height, int timeout_ms,
                      struct cgst_poster *poster, char *error, size_t error_size) {
    memset(poster, 0, sizeof *poster);
    poster->duration_ns = -1;
    GError *gerror = NULL;
    char *uri = F.gst_filename_to_uri(path, &gerror);
    if (!uri) return fail(gerror, "the path cannot be made a URI", error, error_size);

    // videoflip applies the clip's orientation tag (phones record portrait clips as rotated
    // landscape); videoscale keeps the shape inside the box and never scales up.
    char box[64], description[320];
    box_caps(max_width, max_height, box, sizeof box);
    snprintf(description, sizeof description,
             "videoflip video-direction=auto ! videoconvert ! videoscale name=scale ! "
             "capsfilter caps=\"video/x-raw,format=BGRx,pixel-aspect-ratio=1/1%s\" ! fakesink name=sink", box);
    void *sink_bin = F.gst_parse_bin_from_description(description, 1, &gerror);
    if (!sink_bin) {
        F.g_free(uri);
        return fail(gerror, "the video sink cannot be built", error, error_size);
    }
    if (gerror) F.g_error_free(gerror);  // a warning beside a bin that was built
    gerror = NULL;
    void *pipeline = F.gst_element_factory_make("playbin", NULL);
    if (!pipeline) {
        F.gst_object_unref(sink_bin);
        F.g_free(uri);
        snprintf(error, error_size, "GStreamer has no playbin element (gstreamer1.0-plugins-base)");
        return false;
    }
    F.g_object_set(pipeline, "uri", uri, "flags", GST_PLAY_FLAG_VIDEO | GST_PLAY_FLAG_NATIVE_VIDEO, "video-sink", sink_bin, NULL);
    F.g_free(uri);  // playbin keeps its own copy; it owns sink_bin now

    void *bus = F.gst_element_get_bus(pipeline);
    bool ok = preroll(pipeline, bus, timeout_ms, NULL, error, error_size);
    if (ok) {
        natural_size(sink_bin, poster);
        ok = copy_frame(sink_bin, poster, error, error_size);
        int64_t duration = -1;
        if (ok && F.gst_element_query_duration(pipeline, GST_FORMAT_TIME, &duration) && duration >= 0)
            poster->duration_ns = duration;
        if (ok && (poster->natural_width <= 0 || poster->natural_height <= 0)) {
            poster->natural_width = poster->width;
            poster->natural_height = poster->height;
        }
    }
    F.gst_element_set_state(pipeline, GST_STATE_NULL);
    F.gst_object_unref(bus);
    F.gst_object_unref(pipeline);
    return ok;
}

// MARK: The player

struct cgst_player {
    void *pipeline, *sink, *bus;
    int64_t duration_ns;
    /// The clip's sound goes to ALSA (it has an audio stream, sound was asked for, and it opened).
    bool sound;
    /// The libav video decoder's frame threads: asked for, and as it took them (-1: none limited).
    struct decoder_limit { int threads, applied; } decoder;
};

/// videoflip's video-direction for a stream's image-orientation tag (as videoflip's own "auto"
/// reads it); NULL for none or upright.
static const char *flip_for_orientation(const char *orientation) {
    static const char *const tags[][2] = {
        {"rotate-90", "90r"},         {"rotate-180", "180"},        {"rotate-270", "90l"},
        {"flip-rotate-0", "horiz"},   {"flip-rotate-90", "ul-lr"},  {"flip-rotate-180", "vert"},
        {"flip-rotate-270", "ur-ll"},
    };
    for (size_t i = 0; i < sizeof tags / sizeof *tags; i++)
        if (!strcmp(orientation, tags[i][0])) return tags[i][1];
    return NULL;
}

/// Whether the clip has an audio stream: the demuxer has made its pad by the time it prerolled
/// (qtdemux and matroskademux expose every stream before the first buffer).
static bool demuxer_has_audio(void *pipeline, int serial) {
    char name[32];
    snprintf(name, sizeof name, "demux%d", serial);
    void *demux = F.gst_bin_get_by_name(pipeline, name);
    if (!demux) return false;
    void *pad = F.gst_element_get_static_pad(demux, "audio_0");
    if (pad) F.gst_object_unref(pad);
    F.gst_object_unref(demux);
    return pad != NULL;
}

/// Builds and prerolls one player; `flip` is videoflip's direction, NULL for none; `sound_device`
/// the ALSA device the clip's first audio stream plays on, NULL for none (then the clip must
/// have one: an audio branch left unlinked would never preroll). The clip's orientation tag, if
/// it came, goes into `note`, and whether it has sound into `has_audio` (NULL: not wanted).
/// GstBin's "deep-element-added": a libav video decoder decodebin has just made gets at most
/// `threads` frame threads (its max-threads; 0, GStreamer's default, is one a core). Each thread
/// holds frames of its own: on a 1080p H.264 clip one thread fewer is about 19 MB less.
static void limit_decoder_threads(void *bin, void *sub_bin, void *element, void *data) {
    (void)bin;
    (void)sub_bin;
    struct decoder_limit *limit = data;
    void *factory = F.gst_element_get_factory(element);
    char *name = factory ? F.gst_object_get_name(factory) : NULL;
    bool libav = name && !strncmp(name, "avdec_", 6);
    if (name) F.g_free(name);
    // Its audio decoders have no such property; GTypeInstance's first field is its class.
    if (!libav || !F.g_object_class_find_property(*(void **)element, "max-threads")) return;
    F.g_object_set(element, "max-threads", limit->threads, NULL);
    F.g_object_get(element, "max-threads", &limit->applied, NULL);
}

static struct cgst_player *open_player(const char *path, const char *demuxer, int serial, const char *flip,
                                       const char *sound_device, int decoder_threads, int max_width, int max_height, int timeout_ms,
                                       struct orientation_note *note, bool *has_audio, char *error, size_t error_size) {
    // Only the demuxer's first video stream is linked (and its first audio stream when the clip
    // plays with sound): other pads stay unlinked, so no parser or decoder is made for them.
    // decodebin picks the parser and decoder for the one stream (the first slice measured
    // playbin at ~100 MB RSS for a 1080p H.264 frame, this shape at about half). The frames stay
    // in the decoder's YUV: for a clip at the size it is shown, videoconvert and videoscale pass
    // its buffers through untouched and the kiosk turns them into the screen's XRGB as it draws
    // them (no 8 MB BGRx copy a frame). videoflip only when the clip is tagged as rotated: an
    // upright one would still be copied through it. appsink holds one frame at most and, with
    // drop=false, blocks the decoder until the worker has taken it; sync=true paces the frames
    // at the clip's rate (with sound, by the sound card's clock, which alsasink then provides).
    // With sound each branch starts with a queue, so the demuxer's one thread is not held by one
    // sink's preroll while the other waits for its first buffer; the device is set on the
    // element, never written into the description. The sound card's clock then leads, so a
    // frame more than 40 ms late is dropped and the decoder told (QoS) to skip ahead: a board
    // that cannot decode the pictures in time would otherwise hold the demuxer behind them
    // until the sound ran dry (heard as silence in a TCG guest). Muted, nothing is dropped.
    char box[64], flipping[64] = "", sounding[160] = "", description[900];
    box_caps(max_width, max_height, box, sizeof box);
    if (flip) snprintf(flipping, sizeof flipping, "videoflip video-direction=%s ! ", flip);
    if (sound_device)
        snprintf(sounding, sizeof sounding,
                 " demux%d.audio_0 ! queue ! decodebin ! audioconvert ! audioresample ! alsasink name=speaker", serial);
    int written = snprintf(description, sizeof description,
             "filesrc name=src ! %s name=demux%d demux%d.video_0 ! %sdecodebin ! %svideoconvert ! videoscale ! "
             "capsfilter caps=\"video/x-raw,format=(string){I420,NV12},pixel-aspect-ratio=1/1%s\" ! "
             "appsink name=sink max-buffers=1 drop=false sync=true emit-signals=false%s%s", demuxer, serial, serial,
             sound_device ? "queue ! " : "", flipping, box, sound_device ? " qos=true max-lateness=40000000" : "", sounding);
    if (written < 0 || (size_t)written >= sizeof description) {
        snprintf(error, error_size, "the demuxer's name is too long");
        return NULL;
    }
    GError *gerror = NULL;
    void *pipeline = F.gst_parse_launch(description, &gerror);
    if (!pipeline) {
        fail(gerror, "the player's pipeline cannot be built", error, error_size);
        return NULL;
    }
    if (gerror) F.g_error_free(gerror);  // a warning beside a pipeline that was built
    struct cgst_player *player = calloc(1, sizeof *player);
    void *source = F.gst_bin_get_by_name(pipeline, "src");
    void *speaker = sound_device ? F.gst_bin_get_by_name(pipeline, "speaker") : NULL;
    if (!player || !source || (sound_device && !speaker)) {
        snprintf(error, error_size, !player ? "out of memory for a player" : !source ? "the player has no file source"
                                                                                   : "the player has no ALSA sink (gstreamer1.0-alsa)");
        if (source) F.gst_object_unref(source);
        if (speaker) F.gst_object_unref(speaker);
        F.gst_object_unref(pipeline);
        free(player);
        return NULL;
    }
    F.g_object_set(source, "location", path, NULL);
    F.gst_object_unref(source);
    player->decoder = (struct decoder_limit){decoder_threads, -1};
    if (decoder_threads > 0)
        F.g_signal_connect_data(pipeline, "deep-element-added", (void *)limit_decoder_threads, &player->decoder, NULL, 0);
    if (speaker) {
        F.g_object_set(speaker, "device", sound_device, NULL);
        F.gst_object_unref(speaker);
    }
    player->pipeline = pipeline;
    player->sink = F.gst_bin_get_by_name(pipeline, "sink");
    player->bus = F.gst_element_get_bus(pipeline);
    player->duration_ns = -1;
    player->sound = sound_device != NULL;
    if (!player->sink || !preroll(pipeline, player->bus, timeout_ms, note, error, error_size)) {
        if (!player->sink) snprintf(error, error_size, "the player has no sink");
        cgst_player_close(player);
        return NULL;
    }
    // Tags still queued after the preroll; an error among them fails the opening here rather
    // than being popped and lost.
    if (note && posted_error(player->bus, 0, note, error, error_size)) {
        cgst_player_close(player);
        return NULL;
    }
    if (has_audio) *has_audio = demuxer_has_audio(pipeline, serial);
    int64_t duration = -1;
    if (F.gst_element_query_duration(pipeline, GST_FORMAT_TIME, &duration) && duration >= 0)
        player->duration_ns = duration;
    return player;
}

struct cgst_player *cgst_player_open(const char *path, const char *demuxer, int serial, int max_width, int max_height,
                                     const char *sound_device, int decoder_threads, int timeout_ms, char *sound_problem,
                                     size_t sound_problem_size, char *error, size_t error_size) {
    if (sound_problem_size) sound_problem[0] = 0;
    // Opened silent first: it tells the clip's orientation and whether it has sound at all.
    struct orientation_note orientation = {""};
    bool has_audio = false;
    struct cgst_player *player = open_player(path, demuxer, serial, NULL, NULL, decoder_threads, max_width, max_height, timeout_ms,
                                             &orientation, &has_audio, error, error_size);
    if (!player) return NULL;
    const char *flip = flip_for_orientation(orientation.value);
    bool sound = sound_device && has_audio;
    if (!flip && !sound) return player;
    // Rotated, or with sound: opened again as it will play (the box applies to the upright frame).
    cgst_player_close(player);
    if (sound) {
        player = open_player(path, demuxer, serial, flip, sound_device, decoder_threads, max_width, max_height, timeout_ms, NULL, NULL,
                             sound_problem, sound_problem_size);
        if (player) return player;
        // The sound cannot play (no such device, no decoder for it): the clip plays muted and
        // the caller says why.
    }
    return open_player(path, demuxer, serial, flip, NULL, decoder_threads, max_width, max_height, timeout_ms, NULL, NULL, error,
                       error_size);
}

bool cgst_player_plays_sound(const struct cgst_player *player) { return player->sound; }

int cgst_player_decoder_threads(const struct cgst_player *player) { return player->decoder.applied; }

bool cgst_player_set_playing(struct cgst_player *player, bool playing) {
    return F.gst_element_set_state(player->pipeline, playing ? GST_STATE_PLAYING : GST_STATE_PAUSED)
           != GST_STATE_CHANGE_FAILURE;
}

/// A pulled sample kept mapped while the app shows its frame (the buffer goes back to its pool
/// when released: no copy of 8 MB per 1080p frame).
struct cgst_held {
    void *sample, *buffer;
    GstMapInfo map;
};

/// The matrix and range a stream's colorimetry names ("bt709", or "range:matrix:transfer:
/// primaries" in GStreamer's numbers); without one, GStreamer's own default: BT.709 above
/// 576 lines, BT.601 below, limited range.
static void read_colorimetry(const char *colorimetry, int height, struct cgst_frame *frame) {
    frame->matrix = height > 576 ? CGST_BT709 : CGST_BT601;
    frame->full_range = false;
    if (!colorimetry) return;
    int range = 0, matrix = 0;
    if (sscanf(colorimetry, "%d:%d:", &range, &matrix) == 2) {
        frame->full_range = range == 1;  // GST_VIDEO_COLOR_RANGE_0_255
        frame->matrix = matrix == 3 ? CGST_BT709 : matrix == 6 ? CGST_BT2020 : matrix == 4 ? CGST_BT601 : frame->matrix;
    } else if (!strcmp(colorimetry, "bt709") || !strcmp(colorimetry, "sRGB")) {
        frame->matrix = CGST_BT709;
        frame->full_range = !strcmp(colorimetry, "sRGB");
    } else if (!strncmp(colorimetry, "bt2020", 6) || !strncmp(colorimetry, "bt2100", 6)) {
        frame->matrix = CGST_BT2020;
    } else if (!strcmp(colorimetry, "bt601")) {
        frame->matrix = CGST_BT601;
    }
}

/// Maps the sample's YUV frame for the caller, who releases it with cgst_frame_release. The
/// appsink takes no video meta, so by GStreamer's rule the buffer is in the format's default
/// layout (rows 4-byte aligned, planes one after another), which is worked out here and checked
/// against the buffer's size rather than trusted.
static bool hold_sample(void *sample, struct cgst_frame *frame, char *error, size_t error_size) {
    int width = 0, height = 0;
    void *caps = F.gst_sample_get_caps(sample);
    void *structure = caps ? F.gst_caps_get_structure(caps, 0) : NULL;
    void *buffer = F.gst_sample_get_buffer(sample);
    const char *format = structure ? F.gst_structure_get_string(structure, "format") : NULL;
    if (!structure || !F.gst_structure_get_int(structure, "width", &width) ||
        !F.gst_structure_get_int(structure, "height", &height) || width <= 0 || height <= 0 || width > 16384 ||
        height > 16384) {
        snprintf(error, error_size, "the clip's frame has no size");
        return false;
    }
    bool nv12 = format && !strcmp(format, "NV12");
    if (!format || (!nv12 && strcmp(format, "I420"))) {
        snprintf(error, error_size, "the clip's frames are %s, not I420 or NV12", format ? format : "of no format");
        return false;
    }
    size_t luma_stride = ((size_t)width + 3) & ~(size_t)3, rows = ((size_t)height + 1) & ~(size_t)1;
    size_t chroma_stride = nv12 ? luma_stride : ((((size_t)width + 1) / 2) + 3) & ~(size_t)3;
    size_t chroma_offset = luma_stride * rows, chroma_bytes = chroma_stride * (rows / 2);
    size_t bytes = chroma_offset + chroma_bytes * (nv12 ? 1 : 2);
    struct cgst_held *held = calloc(1, sizeof *held);
    if (!held) {
        snprintf(error, error_size, "out of memory for a frame");
        return false;
    }
    if (!buffer || !F.gst_buffer_map(buffer, &held->map, GST_MAP_READ)) {
        snprintf(error, error_size, "the clip's frame cannot be read");
        free(held);
        return false;
    }
    if (held->map.size < bytes) {
        snprintf(error, error_size, "the clip's frame is %zu bytes, not %dx%d %s", held->map.size, width, height, format);
        F.gst_buffer_unmap(buffer, &held->map);
        free(held);
        return false;
    }
    held->sample = sample;
    held->buffer = buffer;
    uint8_t *data = held->map.data;
    frame->layout = nv12 ? CGST_NV12 : CGST_I420;
    frame->planes[0] = data;
    frame->strides[0] = (int)luma_stride;
    frame->planes[1] = data + chroma_offset;
    frame->strides[1] = (int)chroma_stride;
    frame->planes[2] = nv12 ? NULL : data + chroma_offset + chroma_bytes;
    frame->strides[2] = nv12 ? 0 : (int)chroma_stride;
    frame->held = held;
    frame->width = width;
    frame->height = height;
    read_colorimetry(F.gst_structure_get_string(structure, "colorimetry"), height, frame);
    return true;
}

void cgst_frame_release(void *opaque) {
    struct cgst_held *held = opaque;
    if (!held) return;
    F.gst_buffer_unmap(held->buffer, &held->map);
    F.gst_mini_object_unref(held->sample);
    free(held);
}

int cgst_player_pull(struct cgst_player *player, int timeout_ms, struct cgst_frame *frame, char *error,
                     size_t error_size) {
    memset(frame, 0, sizeof *frame);
    void *sample = NULL;
    F.g_signal_emit_by_name(player->sink, "try-pull-sample", (uint64_t)timeout_ms * 1000000, &sample);
    if (sample) {
        if (!hold_sample(sample, frame, error, error_size)) {
            F.gst_mini_object_unref(sample);
            return -1;
        }
        int64_t position = -1;
        frame->position_ns = F.gst_element_query_position(player->pipeline, GST_FORMAT_TIME, &position) ? position : -1;
        return 1;
    }
    if (posted_error(player->bus, 0, NULL, error, error_size)) return -1;
    gboolean eos = 0;
    F.g_object_get(player->sink, "eos", &eos, NULL);
    if (eos && !F.gst_element_seek_simple(player->pipeline, GST_FORMAT_TIME,
                                          GST_SEEK_FLAG_FLUSH | GST_SEEK_FLAG_KEY_UNIT, 0)) {
        snprintf(error, error_size, "the clip cannot be played again from its start");
        return -1;
    }
    return 0;
}

int64_t cgst_player_duration(const struct cgst_player *player) { return player->duration_ns; }

void cgst_player_close(struct cgst_player *player) {
    if (!player) return;
    F.gst_element_set_state(player->pipeline, GST_STATE_NULL);
    if (player->sink) F.gst_object_unref(player->sink);
    if (player->bus) F.gst_object_unref(player->bus);
    F.gst_object_unref(player->pipeline);
    free(player);
}
