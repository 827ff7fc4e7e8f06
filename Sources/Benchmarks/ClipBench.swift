import Glibc
import Graphics
import PhotoKioskApp
import SystemAccess
import SystemPackage

/// (i) A video clip playing in the album (issue 35 item 4): a 1080p30 H.264 clip made here by
/// gst-launch-1.0 (10 s of scrolling SMPTE bars, x264 veryfast at 6 Mbit/s: lighter to decode
/// than a phone's camera clip), played by the app in a fresh child process on a 1920x1080
/// headless screen, against `gst-launch-1.0 … ! decodebin ! fakesink sync=true` decoding the same
/// file: CPU per second of video, frames shown, and memory over the album's own peak.
extension BenchRun {
    static let clipSeconds = 10.0
    static let clipFrames = 300

    /// The clip, made once under `work`; nil (with the reason said) when GStreamer's tools or
    /// plugins are missing.
    func benchClip() -> String? {
        let folder = options.work + "/clip-1080p30", path = folder + "/clip.mp4"
        if FileSystemCalls.exists(FilePath(path)) { return path }
        guard which("gst-launch-1.0") != nil else {
            say("clip: gst-launch-1.0 missing (apt-get install gstreamer1.0-tools gstreamer1.0-plugins-ugly gstreamer1.0-libav)")
            return nil
        }
        _ = spawn(["mkdir", "-p", folder])
        let made = spawn(["gst-launch-1.0", "-q", "videotestsrc", "num-buffers=\(Self.clipFrames)", "pattern=smpte", "horizontal-speed=6", "!",
                          "video/x-raw,format=I420,width=1920,height=1080,framerate=30/1", "!", "x264enc", "speed-preset=veryfast",
                          "bitrate=6000", "!", "mp4mux", "!", "filesink", "location=\(path).tmp"], showErrors: true)
        guard made?.succeeded == true, spawn(["mv", path + ".tmp", path])?.succeeded == true else {
            say("clip: cannot make the 1080p30 H.264 clip (x264enc from gstreamer1.0-plugins-ugly?)")
            return nil
        }
        return path
    }

    func clipSection(_ table: inout Table) {
        table.section("(i) video clip 1080p30 H.264 in the album (headless 1920x1080, fresh child), ratio to gst-launch decodebin ! fakesink sync=true")
        guard let clip = benchClip() else {
            table.add(Row(figure: "clip playback", median: "not measured: no clip (GStreamer's tools or plugins missing)"))
            return
        }
        let folder = options.work + "/clip-1080p30"
        let exe = selfExecutable(), out = options.work + "/child-result.txt"
        var ours = Samples(), baseline = Samples(), pipeline = Samples(), shown = Samples(), added = Samples(), album = Samples(),
            gstRSS = Samples()
        for _ in 0..<reps {
            // Taking turns, so that load from elsewhere falls on both alike.
            if let r = spawn(["gst-launch-1.0", "-q", "filesrc", "location=" + clip, "!", "qtdemux", "!", "decodebin", "!",
                              "fakesink", "sync=true"]), r.succeeded {
                baseline.add(r.cpuSeconds / Self.clipSeconds)
                gstRSS.add(Double(r.maxResidentBytes) / 1_048_576)
            }
            // The kiosk's own pipeline up to its sink (CGST: converter and scaler passing the
            // decoder's I420 through): what GStreamer costs it, the rest being the kiosk's drawing.
            if let r = spawn(["gst-launch-1.0", "-q", "filesrc", "location=" + clip, "!", "qtdemux", "!", "decodebin", "!",
                              "videoconvert", "!", "videoscale", "!",
                              "video/x-raw,format=(string){I420,NV12},pixel-aspect-ratio=1/1,width=[1,1920],height=[1,1080]", "!",
                              "fakesink", "sync=true"]), r.succeeded {
                pipeline.add(r.cpuSeconds / Self.clipSeconds)
            }
            let r = spawn([exe, "child", "clip", folder, "-", out, String(Self.clipSeconds - 2)], showErrors: true)
            let kv = keyValues(readText(out) ?? "")
            if r?.succeeded == true, let cpu = kv["cpu_per_second"], let frames = kv["frames_per_second"],
               let before = kv["album_peak_rss"], let during = kv["peak_rss"] {
                ours.add(cpu)
                shown.add(frames)
                album.add(before / 1_048_576)
                added.add(max(0, during - before) / 1_048_576)
            }
        }
        guard ours.count > 0, baseline.count > 0 else {
            table.add(Row(figure: "clip playback", median: "not measured: the app or gst-launch failed (see above)"))
            return
        }
        let ratio = ours.median / baseline.median
        table.add(Row(figure: "CPU per second of 1080p30 video (one core = 1 s)", median: fixed(ours.median, 3) + " s",
                      spread: fixed(ours.spread.low, 3) + "–" + fixed(ours.spread.high, 3) + " s",
                      baseline: "gst-launch fakesink: " + fixed(baseline.median, 3) + " s", ratio: fixed(ratio, 2) + "x",
                      target: "≤ 1.3x", status: verdict(ratio, atMost: 1.3)))
        if pipeline.count > 0 {
            table.add(Row(figure: "  of which the kiosk's GStreamer pipeline (gst-launch … videoconvert ! videoscale ! I420 ! fakesink)",
                          median: fixed(pipeline.median, 3) + " s", ratio: fixed(pipeline.median / baseline.median, 2) + "x"))
        }
        table.add(Row(figure: "frames shown per second (the clip has 30)", median: fixed(shown.median, 1),
                      spread: fixed(shown.spread.low, 1) + "–" + fixed(shown.spread.high, 1)))
        table.add(Row(figure: "memory while playing, over the album's peak (VmHWM)", median: "+" + fixed(added.median, 1) + " MB",
                      spread: fixed(added.spread.low, 1) + "–" + fixed(added.spread.high, 1) + " MB",
                      baseline: "album peak " + fixed(album.median, 1) + " MB; gst-launch fakesink peak " + fixed(gstRSS.median, 1) + " MB",
                      target: "≤ +40 MB", status: verdict(added.median, atMost: 40)))
    }
}

extension AppChild {
    /// The album opened on the library's first item (the clip): its poster, then `seconds` of
    /// playing. Records the album's peak before playing, CPU per second and frames shown per
    /// second while playing, and the peak while playing (written as peak_rss).
    func measureClip(seconds: Double) throws {
        try settle()
        app.openPhoto(at: 0)
        guard let page = app.album?.centerPage else { fatalError("the album did not open") }
        // The poster first (the album as it is before anything plays).
        var end = loop.now + 30
        while !(page.isLoaded && !app.window.needsDisplay) && loop.now < end { try turn(timeout: 0.02) }
        if let peak = Self.peakRSS() { record("album_peak_rss", peak) }
        Self.resetPeakRSS()
        end = loop.now + 30
        while page.displayedMotionFrame == nil && loop.now < end { try turn(timeout: 0.02) }
        guard page.displayedMotionFrame != nil else { fatalError("the clip did not start playing within 30 s") }
        var last = page.displayedMotionFrame.map(ObjectIdentifier.init)
        var frames = 0
        let cpu0 = ResourceUsage.current().cpuSeconds, t0 = loop.now
        while loop.now - t0 < seconds {
            try turn(timeout: 0.05)
            let now = page.displayedMotionFrame.map(ObjectIdentifier.init)
            if now != last { frames += 1; last = now }
        }
        let elapsed = loop.now - t0
        record("cpu_per_second", (ResourceUsage.current().cpuSeconds - cpu0) / elapsed)
        record("frames_per_second", Double(frames) / elapsed)
    }
}
