#!/usr/bin/env python3
"""The `video` e2e stage's material and its check (issue 35): a 1080p30 H.264 clip that plays in
the album on DRM in a 512 MB guest, after three big photos whose pages give the album's own
memory peak. Everything is generated here (gst-launch-1.0, cjpeg); nothing is downloaded.

The clip is videotestsrc's SMPTE bars scrolling 6 px a frame, 4 s (120 frames), so any two
frames a few apart differ everywhere along the bars' edges, with a 440 Hz tone in AAC (a phone's
clip has sound). A second, small clip with the same tone follows it: the guest's sound check
plays that one on snd-aloop (video-driver.sh), because a TCG guest decodes the 1080p pictures
slower than they play, and with sound the card's clock leads: frames are dropped and the sound
comes in gaps. The guest shows it on a 1920x1200
screen: 1920x1080 at 1:1 between black bars of 60 rows (the clip's rectangle is x 0-1919,
y 60-1139). The reference is every frame decoded here by GStreamer (the same decoder as the
app's) and turned into RGB by libyuv, as the app draws it (GStreamer's own videoconvert rounds
differently: 2.97 mean difference on these samples, as much as two frames apart), sampled on a
grid every STEP pixels inside the rectangle, leaving out its bottom BAR_ROWS rows where the
progress bar is drawn.

  video-clip.py prepare DIR   writes DIR/photos (3 JPEGs + the clip), DIR/reference.bin,
                              DIR/reference.json and DIR/expect.json (the harness's rules)
  video-clip.py match DIR SHOT.ppm   prints the reference frame the screendump is closest to

The harness (`clip` and `clip_moved` rules) asks `match` of each screendump: the inside of the
rectangle must be one of the decoded frames within TOLERANCE (mean absolute channel difference
over the samples, out of 255) with at most OUTLIERS of the samples off by more than 48; a second
screendump a second later must match a different frame, and every pixel outside the rectangle
must be as in the first."""
import ctypes, importlib.util, json, os, subprocess, sys

SCREEN = (1920, 1200)
CLIP = (1920, 1080)
RECT = (0, (SCREEN[1] - CLIP[1]) // 2, CLIP[0], CLIP[1])      # x, y, width, height on screen
FRAMES, FPS, SPEED = 120, 30, 6
STEP = 16
BAR_ROWS = 32          # the progress bar (4 points) and a margin, at the rectangle's bottom
TOLERANCE = 3.0       # consecutive frames differ by 6-8 on these samples
OUTLIERS = 0.02

HERE = os.path.dirname(os.path.abspath(__file__))


def samples_at():
    """The sampled (x, y) positions inside the clip, in the clip's own pixels."""
    return [(x, y) for y in range(STEP // 2, CLIP[1] - BAR_ROWS, STEP) for x in range(STEP // 2, CLIP[0], STEP)]


def photos_module():
    spec = importlib.util.spec_from_file_location('smallboard_photos', os.path.join(HERE, 'smallboard-photos.py'))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def prepare(out):
    os.makedirs(out + '/photos', exist_ok=True)
    sb = photos_module()
    # three of the small board's photos: a 2560x1600, two 5120x2880 progressive (the album's peak)
    chosen = [sb.PHOTOS[0], sb.PHOTOS[1], sb.PHOTOS[4]]
    for i, (w, h, progressive, quality, colour) in enumerate(chosen):
        path = f'{out}/photos/{i:02d}-{w}x{h}.jpg'
        if os.path.exists(path): continue
        args = ['cjpeg', '-quality', str(quality), '-outfile', path + '.tmp'] + (['-progressive', '-sample', '1x1'] if progressive else [])
        p = subprocess.Popen(args, stdin=subprocess.PIPE)
        for chunk in sb.ppm(w, h, i, colour): p.stdin.write(chunk)
        p.stdin.close()
        if p.wait() != 0: sys.exit(f'cjpeg failed for {path}')
        os.rename(path + '.tmp', path)
    clip = f'{out}/photos/99-clip-1080p30.mp4'
    if not os.path.exists(clip):
        subprocess.run(['gst-launch-1.0', '-q', 'videotestsrc', f'num-buffers={FRAMES}', 'pattern=smpte', f'horizontal-speed={SPEED}', '!',
                        f'video/x-raw,format=I420,width={CLIP[0]},height={CLIP[1]},framerate={FPS}/1', '!',
                        'x264enc', 'speed-preset=veryfast', 'bitrate=6000', '!', 'mp4mux', 'name=mux', '!', 'filesink', f'location={clip}.tmp',
                        'audiotestsrc', 'freq=440', 'volume=0.5', f'num-buffers={FRAMES * 44100 // FPS // 1024}', '!',
                        'audio/x-raw,rate=44100,channels=2', '!', 'audioconvert', '!', 'avenc_aac', '!', 'mux.'], check=True)
        os.rename(clip + '.tmp', clip)
    tone = f'{out}/photos/99-tone-320x240.mp4'
    if not os.path.exists(tone):
        subprocess.run(['gst-launch-1.0', '-q', 'videotestsrc', f'num-buffers={FRAMES}', 'pattern=ball', '!',
                        f'video/x-raw,format=I420,width=320,height=240,framerate={FPS}/1', '!',
                        'x264enc', 'speed-preset=veryfast', '!', 'mp4mux', 'name=mux', '!', 'filesink', f'location={tone}.tmp',
                        'audiotestsrc', 'freq=440', 'volume=0.5', f'num-buffers={FRAMES * 44100 // FPS // 1024}', '!',
                        'audio/x-raw,rate=44100,channels=2', '!', 'audioconvert', '!', 'avenc_aac', '!', 'mux.'], check=True)
        os.rename(tone + '.tmp', tone)
    # every frame decoded as the app decodes it (qtdemux, decodebin: the decoder's I420) and turned
    # into RGB as the app draws it (libyuv, BT.709 limited range as the stream's caps say), sampled
    yuv = ctypes.CDLL('libyuv.so.0')
    bt709 = ctypes.c_void_p(ctypes.addressof(ctypes.c_char.in_dll(yuv, 'kYuvH709Constants')))
    decode = subprocess.Popen(['gst-launch-1.0', '-q', 'filesrc', f'location={clip}', '!', 'qtdemux', 'name=d', 'd.video_0', '!', 'decodebin', '!',
                               'videoconvert', '!', 'video/x-raw,format=I420', '!', 'fdsink', 'fd=1'], stdout=subprocess.PIPE)
    luma, chroma = CLIP[0] * CLIP[1], (CLIP[0] // 2) * (CLIP[1] // 2)
    frame_bytes = luma + 2 * chroma
    positions = [(y * CLIP[0] + x) * 4 for x, y in samples_at()]
    argb = ctypes.create_string_buffer(CLIP[0] * CLIP[1] * 4)
    frames = []
    while True:
        data = decode.stdout.read(frame_bytes)
        if len(data) < frame_bytes: break
        planes = ctypes.create_string_buffer(data, frame_bytes)
        base = ctypes.addressof(planes)
        if yuv.I420ToARGBMatrix(ctypes.c_void_p(base), CLIP[0], ctypes.c_void_p(base + luma), CLIP[0] // 2,
                                ctypes.c_void_p(base + luma + chroma), CLIP[0] // 2, argb, CLIP[0] * 4, bt709,
                                CLIP[0], CLIP[1]) != 0:
            sys.exit('libyuv could not convert a frame')
        raw = argb.raw
        frames.append(b''.join(bytes((raw[o + 2], raw[o + 1], raw[o])) for o in positions))   # B G R A -> R G B
    if decode.wait() != 0 or len(frames) != FRAMES: sys.exit(f'decoding the clip gave {len(frames)} of {FRAMES} frames')
    with open(out + '/reference.bin', 'wb') as f: f.write(b''.join(frames))
    json.dump({'screen': SCREEN, 'rect': RECT, 'frames': FRAMES, 'step': STEP, 'bar_rows': BAR_ROWS,
               'tolerance': TOLERANCE, 'outliers': OUTLIERS}, open(out + '/reference.json', 'w'))
    near = lambda colour: ['near', [0.5, 0.5], list(colour)]
    expect = {'vid_grid': ['busy', 'stable']}
    for i, c in enumerate(chosen): expect[f'vid_page_{i}'] = (['changed'] if i else []) + [near(c[4]), 'stable']
    expect['vid_clip_a'] = [['clip', out]]
    expect['vid_clip_b'] = [['clip_moved', out, 'vid_clip_a']]
    expect['vid_paused'] = [['clip', out], 'stable']
    json.dump(expect, open(out + '/expect.json', 'w'), indent=1)
    print(f'video: {clip} ({os.path.getsize(clip)} bytes), {len(frames)} reference frames of {len(positions)} samples')


REFERENCES = {}

def match(out, img):
    """(frame index, mean difference, outlier fraction) of the reference frame closest to the
    screendump's clip rectangle."""
    if out not in REFERENCES:
        data = open(out + '/reference.bin', 'rb').read()
        size = len(data) // FRAMES
        REFERENCES[out] = [data[i * size:(i + 1) * size] for i in range(FRAMES)]
    w, h, px = img
    if (w, h) != SCREEN: return None, float('inf'), 1.0
    shot = bytes(b for x, y in samples_at() for b in px[((y + RECT[1]) * w + x) * 3:((y + RECT[1]) * w + x) * 3 + 3])
    best = (None, float('inf'), 1.0)
    for index, ref in enumerate(REFERENCES[out]):
        total = sum(abs(a - b) for a, b in zip(shot, ref))
        mean = total / len(ref)
        if mean < best[1]:
            off = sum(1 for o in range(0, len(ref), 3) if max(abs(shot[o + c] - ref[o + c]) for c in range(3)) > 48)
            best = (index, mean, off / (len(ref) // 3))
    return best


BUTTON = (400, RECT[1])   # the album's "‹ Grid" button's corner (it fades with the chrome once the clip plays)

def outside_lit(img):
    """Pixels outside the clip's rectangle that are not black, the back button's corner aside."""
    w, h, px = img
    rows = list(range(0, RECT[1])) + list(range(RECT[1] + RECT[3], h))
    return sum(1 for y in rows for x in range(0, w, 2) if not (x < BUTTON[0] and y < BUTTON[1])
               and px[(y * w + x) * 3:(y * w + x) * 3 + 3] != b'\0\0\0')


def outside_differs(a, b):
    """Pixels outside the clip's rectangle that differ between two screendumps."""
    w, h, pa = a
    pb = b[2]
    top, bottom = RECT[1] * w * 3, (RECT[1] + RECT[3]) * w * 3
    if pa[:top] == pb[:top] and pa[bottom:] == pb[bottom:]: return 0
    return sum(1 for o in list(range(0, top, 3)) + list(range(bottom, len(pa), 3)) if pa[o:o + 3] != pb[o:o + 3])


if __name__ == '__main__':
    if sys.argv[1] == 'prepare': prepare(sys.argv[2])
    elif sys.argv[1] == 'match':
        sys.path.insert(0, HERE)
        import pixels
        print(match(sys.argv[2], pixels.read_ppm(sys.argv[3])))
