import Basics
import Glibc
import Graphics
import Imaging
import Platform
import TestSupport
import Testing
@testable import PhotoKioskApp
import Widgets

/// Issue 11, item 4: long runs stay flat (RSS and open descriptors). The simulated length is
/// short in `swift test` and set by ROBUST_LONG_RUN_HOURS / ROBUST_LONG_RUN_ROUNDS for the
/// documented run (scripts/long-run.sh runs the full day).
@Suite(.serialized) struct LongRunTests {
    static func environment(_ name: String, default value: Int) -> Int {
        getenv(name).flatMap { Int(String(cString: $0)) } ?? value
    }

    /// Other suites open and close descriptors in this process at the same time, so the final
    /// count is read once they have settled (settledDescriptorCount); a leak of one per slide or
    /// per round would still be tens to hundreds over the run.
    static let descriptorSlack = 8

    static func report(_ label: String, start: (rss: Int, fds: Int), end: (rss: Int, fds: Int)) {
        print("long run \(label): RSS \(start.rss >> 10) KiB -> \(end.rss >> 10) KiB, open fds \(start.fds) -> \(end.fds)")
    }

    /// The sanitizer scripts/sanitizers.sh runs these tests under, if any.
    static var sanitizer: String? { getenv("PHOTOKIOSK_SANITIZER").map { String(cString: $0) } }

    /// RSS growth over the measured part of the run stays under 24 MB. Under AddressSanitizer
    /// RSS says nothing about leaks: its quarantine keeps freed blocks resident (up to 256 MB)
    /// and its shadow memory grows with every address touched, so CI's asan phase grew 32 MB on
    /// a run that stays flat without it. There the check is skipped, and says so.
    static func expectFlatResidentMemory(_ label: String, start: Int, end: Int) {
        if let sanitizer {
            print("long run \(label): RSS check skipped under \(sanitizer) (its allocator keeps freed memory resident); descriptors still checked")
            return
        }
        #expect(end - start < 24 << 20, "RSS grew by \((end - start) >> 20) MB")
    }

    /// The slideshow controller on an accelerated clock for a day: a slide every 10 s, each
    /// decoded at screen size through the real loader and cache; random touches stop it (idle
    /// 5 min restarts it); every simulated half hour a photo is added and another removed.
    @Test func acceleratedSlideshowDayWithTouchesAndFolderChanges() throws {
        let hours = Self.environment("ROBUST_LONG_RUN_HOURS", default: 2)
        let folder = makeTemporaryDirectory("longrun")
        defer { removeTree(folder) }
        var next = 0
        func addPhoto() throws {
            try FileReader.write(try solidPhoto(HostileFiles.goodColors[next % 6], width: 320, height: 240), to: folder + "/p\(100_000 + next).jpg")
            next += 1
        }
        for _ in 0..<24 { try addPhoto() }
        let scanner = LibraryScanner(roots: [RawPath(folder)], logger: LogCapture().logger)
        func paths() -> [RawPath] { scanner.scanAll().files.map(\.path).sorted() }

        let loop = try EventLoop(signals: [])
        let cache = ImageCache(budget: 16 << 20)
        let loader = ImageLoader(decoder: PhotoFileDecoder(), cache: cache, deliver: { [mailbox = loop.mailbox] in mailbox.post($0) })
        defer { loader.shutdown() }
        var settings = KioskConfig.Slideshow()
        settings.order = .shuffle
        var slideshow = SlideshowController(settings: settings, photos: paths(), seed: 11, screen: .grid(scrollOffset: 0), now: 0)
        var random = SeededRandom(seed: 99)
        var now = 0.0, shown = 0, failed = 0, touches = 0
        var start: (rss: Int, fds: Int)?
        let end = Double(hours) * 3600
        var nextTouch = 600.0, nextFolderChange = 1800.0

        func showCurrent() throws {
            guard let frame = slideshow.frame(at: now) else { return }
            let key = ImageKey(path: frame.photo, size: .screen(width: 800, height: 480))
            if cache.bitmap(for: key) != nil { shown += 1; return }
            var done = false
            _ = loader.request(key, distance: 0) { _, result in
                if case .failure = result { failed += 1 } else { shown += 1 }
                done = true
            }
            while !done { _ = try loop.runOnce(timeout: 1) }
        }

        while now < end {
            let deadline = min(slideshow.nextDeadline ?? .infinity, nextTouch, nextFolderChange)
            now = deadline
            if now == nextTouch {
                // A person browses for a few seconds, then leaves.
                _ = slideshow.touchBegan(at: now)
                slideshow.touchEnded(at: now + Double.random(in: 0.1...5, using: &random))
                now += 5
                touches += 1
                nextTouch = now + Double.random(in: 60...3600, using: &random)
            }
            if now >= nextFolderChange {
                try addPhoto()
                let list = paths()
                _ = list[Int.random(in: 0..<list.count, using: &random)].withCString { unlink($0) }
                slideshow.update(photos: paths())
                nextFolderChange += 1800
            }
            if slideshow.tick(at: now) { try showCurrent() }
            if start == nil && now >= 3600 { start = (residentBytes(), openDescriptorCount()) }
        }
        let rss = residentBytes()
        let first = start ?? (rss, openDescriptorCount())
        let finish = (rss: rss, fds: settledDescriptorCount(limit: first.fds + Self.descriptorSlack))
        Self.report("slideshow \(hours) h (\(shown) slides, \(touches) touches)", start: first, end: finish)
        #expect(shown > hours * 200, "a slide every 10 s while idle")
        #expect(failed == 0)
        #expect(finish.fds <= first.fds + Self.descriptorSlack, "descriptors leak: \(first.fds) -> \(finish.fds)")
        Self.expectFlatResidentMemory("slideshow", start: first.rss, end: finish.rss)
    }

    /// The whole KioskApp: rounds of random gestures, photos opened and closed, files added and
    /// removed while it runs (inotify), thumbnails reloaded. RSS and descriptors stay flat.
    @Test func kioskAppBrowsingWithFolderChangesStaysFlat() throws {
        let rounds = Self.environment("ROBUST_LONG_RUN_ROUNDS", default: 40)
        let folder = makeTemporaryDirectory("longapp")
        defer { removeTree(folder) }
        for i in 0..<60 {
            try FileReader.write(try solidPhoto(HostileFiles.goodColors[i % 6]), to: folder + "/p\(1000 + i).jpg")
        }
        let (app, _) = try makeHeadlessApp(folders: [folder], width: 800, height: 600, memoryMB: 16, logger: LogCapture().logger)
        #expect(try app.runUntilSettled(timeout: 30))
        var storm = TouchStorm(seed: 5, size: Size(width: 800, height: 600))
        var start: (rss: Int, fds: Int)?
        var added = 0
        for round in 0..<rounds {
            try app.play(&storm, frames: 30)
            let now = app.liftEveryFinger(of: &storm)
            app.handle(.key(.escape, pressed: true, time: now))
            if round % 4 == 0 {
                try FileReader.write(try solidPhoto(.white), to: folder + "/new\(added).jpg")
                if added >= 3 { unlink(folder + "/new\(added - 3).jpg") }
                added += 1
            }
            _ = try app.runUntilSettled(timeout: 20)
            if round == rounds / 4 { start = (residentBytes(), openDescriptorCount()) }
        }
        let rss = residentBytes()
        let first = start ?? (rss, openDescriptorCount())
        let finish = (rss: rss, fds: settledDescriptorCount(limit: first.fds + Self.descriptorSlack))
        Self.report("KioskApp \(rounds) rounds (\(storm.eventCount) events)", start: first, end: finish)
        #expect(app.window.activeTouches.isEmpty)
        #expect(finish.fds <= first.fds + Self.descriptorSlack, "descriptors leak: \(first.fds) -> \(finish.fds)")
        Self.expectFlatResidentMemory("KioskApp", start: first.rss, end: finish.rss)
    }
}
