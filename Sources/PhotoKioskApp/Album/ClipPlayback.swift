import Graphics
import Imaging
import Logging
import Platform

/// The one clip playing at a time, for the album (a clip as the settled centre page, a Live
/// Photo's motion while held) and the slideshow. Opening waits for GStreamer's first frame, and
/// closing for its threads, so both happen on a thread of their own: the loop never blocks on
/// GStreamer. Frames arrive through the mailbox, newest only; the owner shows them.
final class ClipPlayback {
    /// What plays: a library item, and the file its motion comes from (a clip, a Live Photo's
    /// .mov, or a Motion Photo whose video is inside the photo file: `embedded`).
    struct Item: Equatable {
        let id: PhotoID
        let path: RawPath
        var embedded = false
        /// The photo whose motion this is (a Live or Motion Photo); nil for a clip, its own item.
        var still: RawPath? = nil

        /// A Live Photo's or a Motion Photo's motion.
        init(motionOf photo: Photo) {
            id = photo.id
            path = photo.motion ?? photo.path
            embedded = photo.motion == nil
            still = photo.path
        }

        init(id: PhotoID, path: RawPath, embedded: Bool = false) {
            self.id = id
            self.path = path
            self.embedded = embedded
        }

        /// The library item's file: the clip, or the photo the motion belongs to.
        var itemPath: RawPath { still ?? path }
    }

    /// One frame for the owner to show, `progress` 0...1 where the clip's length is known.
    struct Frame {
        let item: Item
        let picture: VideoFrame
        let progress: Double?
        /// The clip's length, where its container says.
        let duration: Duration?
    }

    /// The item playing or being opened.
    private(set) var item: Item?
    /// Where a clip played with sound plays it (`sound.clips`); nil: every clip plays muted.
    var sound: ClipSound?
    /// Where the playing item's frames go; nil once it stopped (by `stop`, another item, or a
    /// failure, which is said once in the log): its photo shows again.
    private var show: ((Frame?) -> Void)?
    private var player: ClipPlayer?
    /// What the player reads from and must outlive it (a Motion Photo's video in memory).
    private var source: MotionPhotoClip?
    /// Tells a late open or frame from the item that wanted it apart from a later one.
    private var generation = 0
    /// The playing item's first frame came (said once in the log: the e2e video stage waits for it).
    private var hasShownFrame = false
    /// The item stops at its end instead of starting again (a Live Photo in the slideshow).
    private var playsOnce = false
    /// Where the last frame shown was: a frame before it means the clip started again.
    private var lastPosition: Duration?
    private let mailbox: Mailbox
    private let logger: Logger

    init(mailbox: Mailbox, logger: Logger) {
        self.mailbox = mailbox
        self.logger = logger
    }

    /// Whether the item's frames are moving (not paused, not failed, not still opening).
    var isPlaying: Bool { player?.isPlaying ?? false }

    /// Plays `newItem` from its start, its frames fitted inside `box` pixels and handed to `show`
    /// (nil when it stops), with its sound when `withSound` and `sound` is set (the album; the
    /// slideshow plays muted); whatever played before stops. The same item again changes nothing.
    /// Frames come at the screen's size on every board: kept in the decoder's YUV they cost no
    /// memory beyond the decoder's own (the e2e video stage: +0 MB over the album in a 256 MB
    /// guest), and a frame at its own size is drawn without a scaled copy.
    func play(_ newItem: Item, fitting box: Size, withSound: Bool = false, once: Bool = false,
              show: @escaping (Frame?) -> Void) {
        guard newItem != item else { return }
        stop()
        item = newItem
        self.show = show
        generation += 1
        hasShownFrame = false
        playsOnce = once
        lastPosition = nil
        let wanted = generation, path = newItem.path, embedded = newItem.embedded, mailbox = mailbox
        let sound = withSound ? sound : nil
        let threads = MemorySizing.clipDecoderThreads(memTotal: MemorySizing.machineMemTotal)
        let owner = WeakLoopBound(self, on: mailbox.thread)
        WorkerThread.detached(name: "pk-clip-open") {
            let frameReady: @Sendable () -> Void = { mailbox.post { owner.value?.frameArrived(wanted) } }
            let result: Result<(ClipPlayer, MotionPhotoClip?), ImagingError>
            do throws(ImagingError) {
                if embedded {
                    let source = try MotionPhotoClip(photo: path)
                    result = .success((try source.makePlayer(fitting: box, sound: sound, decoderThreads: threads,
                                                             frameReady: frameReady), source))
                } else {
                    result = .success((try ClipPlayer(path: path, fitting: box, sound: sound, decoderThreads: threads,
                                                      frameReady: frameReady), nil))
                }
            } catch {
                result = .failure(error)
            }
            let opened = OpenResult(result)
            mailbox.post {
                guard let self = owner.value else { opened.discard(); return }
                self.opened(opened, generation: wanted)
            }
        }
    }

    /// Pauses a playing item, or plays a paused one; false when nothing plays here.
    @discardableResult
    func togglePause() -> Bool {
        guard let player else { return false }
        if player.isPlaying { player.pause() } else { player.play() }
        return true
    }

    /// Stops whatever plays; its page goes back to its photo.
    func stop() {
        guard item != nil else { return }
        generation += 1
        item = nil
        if let player {
            self.player = nil
            Self.close(player, source: source)
        }
        source = nil
        let stopped = show
        show = nil
        stopped?(nil)
    }

    /// A player handed from its opening thread to the loop.
    private struct OpenResult: @unchecked Sendable {
        let result: Result<(ClipPlayer, MotionPhotoClip?), ImagingError>
        init(_ result: Result<(ClipPlayer, MotionPhotoClip?), ImagingError>) { self.result = result }
        /// Nobody wants it any more: closed off the loop.
        func discard() {
            if case .success(let (player, source)) = result { ClipPlayback.close(player, source: source) }
        }
    }

    private func opened(_ opened: OpenResult, generation wanted: Int) {
        guard wanted == generation, let item else { opened.discard(); return }
        switch opened.result {
        case .success(let (player, source)):
            self.player = player
            self.source = source
            if let problem = player.soundProblem {
                logger.warning("clip \(item.path.description) plays muted: its sound cannot play on \(sound?.device ?? "ALSA") (\(problem))")
            }
            player.play()
        case .failure(let error):
            fail(item, "\(error)")
        }
    }

    private func frameArrived(_ wanted: Int) {
        guard wanted == generation, let item, let player else { return }
        if let failure = player.failure {
            fail(item, failure)
            return
        }
        guard let frame = player.takeFrame() else { return }
        if playsOnce, let position = frame.position {
            // The player went back to its start: played once, the photo shows again.
            if let last = lastPosition, position < last {
                stop()
                return
            }
            lastPosition = position
        }
        if !hasShownFrame {
            hasShownFrame = true
            let withSound = player.playsSound ? ", with sound on \(sound?.device ?? "ALSA")" : ""
            logger.info("clip playing: \(item.path.description) (\(frame.picture.width)x\(frame.picture.height) frames\(withSound))")
        }
        var progress: Double?
        if let position = frame.position, let duration = player.duration, duration > .zero {
            progress = min(1, max(0, position / duration))
        }
        show?(Frame(item: item, picture: frame.picture, progress: progress, duration: player.duration))
    }

    private func fail(_ failed: Item, _ reason: String) {
        logger.warning("cannot play clip \(failed.path.description): \(reason)")
        stop()
    }

    /// Stopping joins the player's worker and frees GStreamer's threads: off the loop.
    private static func close(_ player: ClipPlayer, source: MotionPhotoClip?) {
        WorkerThread.detached(name: "pk-clip-close") {
            player.stop()
            withExtendedLifetime(source) {}
        }
    }
}
