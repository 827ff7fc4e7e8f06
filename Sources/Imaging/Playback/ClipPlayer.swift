import Basics
import CGST
import Graphics
#if canImport(Glibc)
import Glibc
#endif

/// One video clip playing: GStreamer decodes it (video only) on its own threads, scaled to the
/// size it is shown at; a worker thread takes each frame as a `VideoFrame` (the decoder's own YUV
/// buffer, which the screen converts as it draws it) and keeps the newest for
/// the app's loop, which collects it with `takeFrame()` when `frameReady` has woken it. The
/// loop never sees a pointer, a descriptor or a clock: positions come from the stream.
public final class ClipPlayer: @unchecked Sendable {
    /// A decoded frame and where in the clip it is.
    public struct Frame: Sendable {
        public let picture: VideoFrame
        /// nil when GStreamer cannot say.
        public let position: Duration?
    }

    /// How long opening may take: a damaged or endless file fails within this, never hangs. As
    /// long as a poster may take (`ClipDecoder.prerollTimeoutMilliseconds`): a clip whose poster
    /// came from the disk cache may be the first to load the decoder's plugin.
    static let openTimeoutMilliseconds: Int32 = ClipDecoder.prerollTimeoutMilliseconds
    /// The longest a pull waits, so the worker notices a stop within this.
    static let pullTimeoutMilliseconds: Int32 = 100

    /// Written by init, then only read (the worker pulls; the loop plays and pauses, which
    /// GStreamer allows from another thread); freed after the worker has been joined.
    private let player: OpaquePointer
    private let state = Locked(State())
    private var worker: WorkerThread?
    /// The clip's length, when its container says.
    public let duration: Duration?
    /// Whether its sound goes to the sound card (asked for, the clip has some, and it opened).
    public let playsSound: Bool
    /// The frame threads its software (libav) decoder took when `decoderThreads` limited them;
    /// nil when nothing was limited (no limit asked, or a decoder without threads to limit).
    public let limitedDecoderThreads: Int?
    /// Why the clip plays muted although sound was asked for (no such device, no decoder for
    /// its sound); nil otherwise.
    public let soundProblem: String?
    /// This player's number in the process: its threads are named by it ("pk-clip7" pulls the
    /// frames, "demux7:sink" reads the file), so each player's threads can be told apart.
    public let serial: Int
    private static let serials = Locked(0)

    private struct State {
        var newest: Frame?
        var failure: String?
        var position: Duration?
        var isPlaying = false
        var stopping = false
    }

    /// Opens the clip at `path` (`.mp4Clip` or `.matroskaClip`), its frames fitted inside `box`,
    /// paused on its first frame; its sound plays on `sound` (nil: muted). `frameReady` runs on
    /// the worker thread after each frame or failure: it should only wake the loop.
    public init(path: RawPath, format: ImageFormat, fitting box: Size, sound: ClipSound? = nil, decoderThreads: Int = 0,
                frameReady: @escaping @Sendable () -> Void) throws(ImagingError) {
        try ClipDecoder.loadLibrary(for: format)
        if let problem = VideoFrame.loadConverter() {
            throw ImagingError(.unsupported, "cannot play the \(format): libyuv is not available (\(problem)); "
                               + "install the libyuv0 package")
        }
        let demuxer: String
        switch format {
        case .mp4Clip: demuxer = "qtdemux"
        case .matroskaClip: demuxer = "matroskademux"
        default: throw ImagingError(.unsupported, "a \(format) is not a video clip")
        }
        let serial = Self.serials.withLock { count in
            count = (count + 1) % 100_000
            return count
        }
        self.serial = serial
        var error = [CChar](repeating: 0, count: 512), soundError = [CChar](repeating: 0, count: 512)
        let opened = (path.bytes + [0]).withUnsafeBufferPointer { name in
            name.withMemoryRebound(to: CChar.self) { name in
                cgst_player_open(name.baseAddress, demuxer, Int32(serial), Int32(clamping: max(1, Int(box.width))),
                                 Int32(clamping: max(1, Int(box.height))), sound?.device, Int32(clamping: max(0, decoderThreads)),
                                 Self.openTimeoutMilliseconds,
                                 &soundError, soundError.count, &error, error.count)
            }
        }
        guard let opened else { throw ImagingError(.corrupt, "cannot play the \(format): \(ClipDecoder.messageLine(error))") }
        player = opened
        playsSound = cgst_player_plays_sound(opened)
        let threads = cgst_player_decoder_threads(opened)
        limitedDecoderThreads = threads >= 0 ? Int(threads) : nil
        let soundLine = ClipDecoder.messageLine(soundError)
        soundProblem = soundLine.isEmpty ? nil : soundLine
        let nanoseconds = cgst_player_duration(opened)
        duration = nanoseconds >= 0 ? .nanoseconds(nanoseconds) : nil
        let handle = SendablePointer(opened)
        worker = WorkerThread(name: "pk-clip\(serial)") { [state] in
            Self.pullFrames(handle, state: state, frameReady: frameReady)
        }
    }

    /// The same for a clip whose container is told by its first bytes, not its name (a phone's
    /// .mov may be an MP4, a .mkv a WebM). Anything but a clip is refused before GStreamer loads.
    public convenience init(path: RawPath, fitting box: Size, sound: ClipSound? = nil, decoderThreads: Int = 0,
                            frameReady: @escaping @Sendable () -> Void) throws(ImagingError) {
        let head = try FileReader.read(path: path, maxBytes: .max, prefix: HEIFDecoder.sniffBytes)
        guard let format = ImageFormat.sniff(head), format.isClip else {
            throw ImagingError(.unsupported, "\(path) is not a video clip (\(ImageFormat.supportedList))")
        }
        try self.init(path: path, format: format, fitting: box, sound: sound, decoderThreads: decoderThreads, frameReady: frameReady)
    }

    deinit { stop() }

    /// A C pointer handed to another thread: the player to the worker (which alone pulls while
    /// it runs), a pulled frame's buffer to whichever thread drops its frame last.
    private struct SendablePointer<Pointer>: @unchecked Sendable {
        let pointer: Pointer
        init(_ pointer: Pointer) { self.pointer = pointer }
    }

    private static func pullFrames(_ handle: SendablePointer<OpaquePointer>, state: Locked<State>, frameReady: @Sendable () -> Void) {
        var error = [CChar](repeating: 0, count: 512)
        while !state.withLock({ $0.stopping }) {
            // The loop has not taken the last frame yet: wait (the pipeline waits behind the
            // sink meanwhile) rather than decode another frame the loop may never show.
            if state.withLock({ $0.newest != nil }) {
                usleep(2_000)
                continue
            }
            var frame = cgst_frame()
            let result = cgst_player_pull(handle.pointer, pullTimeoutMilliseconds, &frame, &error, error.count)
            if result < 0 {
                let message = ClipDecoder.messageLine(error)
                state.withLock {
                    $0.failure = message
                    $0.isPlaying = false
                }
                frameReady()
                return
            }
            guard result > 0, let picture = videoFrame(frame) else { continue }
            let position: Duration? = frame.position_ns >= 0 ? .nanoseconds(frame.position_ns) : nil
            state.withLock {
                $0.newest = Frame(picture: picture, position: position)
                $0.position = position
            }
            frameReady()
        }
    }

    /// GStreamer's buffer itself becomes the frame (only ever read): no copy; it goes back to
    /// GStreamer's pool when the frame goes.
    private static func videoFrame(_ frame: cgst_frame) -> VideoFrame? {
        let held = SendablePointer(frame.held)
        let layout: VideoFrame.Layout = frame.layout == CGST_NV12 ? .nv12 : .i420
        let bases = layout == .i420 ? [frame.planes.0, frame.planes.1, frame.planes.2] : [frame.planes.0, frame.planes.1]
        let strides = [frame.strides.0, frame.strides.1, frame.strides.2]
        guard bases.allSatisfy({ $0 != nil }) else {
            cgst_frame_release(held.pointer)
            return nil
        }
        let planes = zip(bases, strides).map { VideoFrame.Plane(base: UnsafeRawPointer($0!), stride: Int($1)) }
        let matrix: VideoFrame.Matrix
        switch frame.matrix {
        case CGST_BT709: matrix = .bt709
        case CGST_BT2020: matrix = .bt2020
        default: matrix = .bt601
        }
        return VideoFrame(width: Int(frame.width), height: Int(frame.height), layout: layout, planes: planes,
                          matrix: matrix, fullRange: frame.full_range) { cgst_frame_release(held.pointer) }
    }

    /// The newest frame not yet taken (older ones were replaced: the loop shows only the newest).
    public func takeFrame() -> Frame? {
        state.withLock { state in
            defer { state.newest = nil }
            return state.newest
        }
    }

    /// Why the stream stopped, once it has failed (the frames stop then).
    public var failure: String? { state.withLock { $0.failure } }
    /// Where the newest frame is in the clip.
    public var position: Duration? { state.withLock { $0.position } }
    public var isPlaying: Bool { state.withLock { $0.isPlaying } }

    /// Plays from where it is (the start at first). After the end it starts again.
    public func play() { setPlaying(true) }

    /// Holds the current frame; `play()` goes on from it.
    public func pause() { setPlaying(false) }

    private func setPlaying(_ playing: Bool) {
        let usable = state.withLock { !$0.stopping && $0.failure == nil }
        guard usable else { return }
        if cgst_player_set_playing(player, playing) {
            state.withLock { $0.isPlaying = playing }
        } else {
            state.withLock { $0.failure = "GStreamer refused to \(playing ? "play" : "pause") the clip" }
        }
    }

    /// Stops the worker (within one pull's wait) and frees the pipeline and its threads. The
    /// player does nothing afterwards.
    public func stop() {
        let first = state.withLock { state -> Bool in
            defer { state.stopping = true }
            return !state.stopping
        }
        guard first else { return }
        worker?.join()
        worker = nil
        cgst_player_close(player)
    }
}
