import Testing
import Graphics
@testable import Imaging
import Logging
import UI
@testable import PhotoKioskApp
import TestSupport
@testable import Widgets

/// The grid and the thumbnail service together: a fast fling requests far fewer thumbnails, and
/// the cells on screen when it ends are all loaded.
@Suite struct ThumbnailFlingTests {
    final class Setup {
        let clock = ManualClock(now: 100)
        let window: Window
        let grid = ThumbnailGridView(frame: Rect(size: Size(width: 1920, height: 1080)))
        let loader = RecordingLoader()
        let cache = ImageCache(budget: 256 << 20)
        let photos = PhotoList()
        let service: ThumbnailService
        let finger: ScriptedFinger

        init(deferral: FlingLoadDeferral?) {
            let files = (0..<5000).map { i in
                ScannedFile(path: RawPath("/photos/p\(10000 + i).jpg"), type: .jpeg,
                            identity: FileIdentity(device: 1, inode: UInt64(i + 1)), size: 1000, modificationSeconds: 0)
            }
            _ = photos.add(files)
            service = ThumbnailService(photos: photos, loader: loader, cache: cache, logger: Logger(label: "test"))
            window = Window(size: Size(width: 1920, height: 1080), clock: clock)
            finger = ScriptedFinger(window: window, clock: clock)
            grid.itemCount = photos.count
            grid.loadDeferral = deferral
            grid.provider = service
            service.onChange = { [grid] index, state in grid.thumbnailDidChange(at: index, to: state) }
            window.addSubview(grid)
            window.layoutIfNeeded()
        }

        /// An upward swipe (400 points in 64 ms) every half second, four times, as the benchmark flings.
        func fling() {
            for _ in 0..<4 {
                finger.swipeUp()
                for _ in 0..<25 { finger.step(1.0 / 60) }
            }
        }

        func settle() {
            for _ in 0..<1200 where grid.isMoving || grid.isDeferringLoads { finger.step(1.0 / 60) }
        }

        /// Finishes every open load with a bitmap of `edge`², as the loader would.
        func finishLoads(edge: Int = 8) {
            for ticket in loader.open {
                loader.finish(ticket.key, with: .success(Bitmap(width: edge, height: edge)), cache: cache)
            }
        }
    }

    @Test func aFlingRequestsFewerThumbnailsAndEveryVisibleCellLoadsWhenItEnds() throws {
        var requestedWhileFlinging: [Bool: Int] = [:]
        for deferring in [false, true] {
            let s = Setup(deferral: deferring ? FlingLoadDeferral() : nil)
            var pauses: [Bool] = []
            s.service.onLoadsDeferred = { pauses.append($0) }
            s.finishLoads()
            #expect(s.grid.isVisibleContentLoaded)
            let before = s.loader.requests.count
            s.fling()
            requestedWhileFlinging[deferring] = s.loader.requests.count - before
            #expect(s.grid.contentOffset.y > 5000, "the flings travel far down the grid")
            #expect(s.grid.isDeferringLoads == deferring)
            s.settle()
            #expect(!s.grid.isDeferringLoads && !s.service.isDeferringLoads)
            // What is requested at the end is the cells around the screen, nothing passed on the way.
            let live = Set(s.grid.liveIndices)
            let openIndices = s.loader.open.compactMap { s.photos.photo(at: $0.key.path).flatMap { s.photos.index(of: $0.id) } }
            #expect(openIndices.allSatisfy(live.contains))
            #expect(Set(s.grid.visibleIndices).isSubset(of: Set(openIndices)))
            s.finishLoads()
            #expect(s.grid.isVisibleContentLoaded)
            if deferring { #expect(s.service.deferredRequestCount > 0) }
            // The loader is paused for the fling and resumed after it, once each.
            #expect(pauses == (deferring ? [true, false] : []))
        }
        let without = try #require(requestedWhileFlinging[false]), with = try #require(requestedWhileFlinging[true])
        #expect(with * 4 < without, "requests during the fling: \(with) deferred vs \(without) not")
    }

    @Test func thumbnailsScrolledFarAwayLeaveTheCacheButRecentOnesStay() {
        let s = Setup(deferral: nil)
        let edge = 256, bytes = edge * edge * 4
        s.service.keptUnwantedBytes = 20 * bytes
        s.finishLoads(edge: edge)
        // Down the grid a third of a screen at a time, every thumbnail arriving on the way.
        for _ in 0..<60 {
            s.grid.contentOffset.y += 360
            s.window.layoutIfNeeded()
            s.finishLoads(edge: edge)
        }
        let live = s.grid.liveIndices.count
        #expect(s.cache.totalBytes <= (live + 20) * bytes)
        #expect(s.cache.totalBytes >= live * bytes)
        // The rows that just left are still in memory: nothing is requested for them.
        let requests = s.loader.requests.count
        s.grid.contentOffset.y -= 360
        s.window.layoutIfNeeded()
        #expect(s.loader.requests.count == requests)
        #expect(s.grid.isVisibleContentLoaded)
        // The top of the grid is long gone and loads again.
        s.grid.contentOffset.y = 0
        s.window.layoutIfNeeded()
        #expect(s.loader.requests.count > requests)
    }
}
