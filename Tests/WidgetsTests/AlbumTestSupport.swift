import Graphics
import UI
@testable import Widgets

/// Serves whatever content a test put in, and records every demand the album makes.
final class RecordingAlbumProvider: PhotoAlbumProvider {
    var photoCount: Int
    var contents: [Int: PhotoContent] = [:]
    var demandHistory: [[Int: PhotoDemand]] = []
    var lastDemands: [Int: PhotoDemand] { demandHistory.last ?? [:] }

    /// Captions by index; a reorder test moves them as the owner's list would.
    var captions: [String]

    init(count: Int) {
        photoCount = count
        captions = (0..<count).map { "photo\($0).jpg" }
    }

    func photoContent(at index: Int) -> PhotoContent { contents[index] ?? .empty }
    func caption(at index: Int) -> String? { index < captions.count ? captions[index] : nil }
    func updateWantedPhotos(_ demands: [Int: PhotoDemand]) { demandHistory.append(demands) }

    /// Indices that were wanted once and later dropped (their loads would be cancelled).
    var dropped: Set<Int> {
        var result: Set<Int> = []
        for (before, after) in zip(demandHistory, demandHistory.dropFirst()) {
            result.formUnion(Set(before.keys).subtracting(after.keys))
        }
        return result
    }
}

/// A window on a manual clock with scripted touches, frame by frame (as Tests/UITests/Harness).
final class AlbumHarness {
    static let frame = 1.0 / 60
    let clock = ManualClock(now: 100)
    let window: Window
    let album: PhotoAlbumView
    let provider: RecordingAlbumProvider
    var closed = 0

    init(count: Int, size: Size = Size(width: 400, height: 300), start: Int = 0) {
        window = Window(size: size, clock: clock)
        album = PhotoAlbumView(frame: Rect(size: size))
        provider = RecordingAlbumProvider(count: count)
        window.addSubview(album)
        album.show(provider, at: start)
        album.onClose = { [unowned self] in self.closed += 1 }
        window.firstResponder = album
        window.layoutIfNeeded()
    }

    var pager: PagingScrollView { album.pager }

    func advance(by seconds: Double) {
        clock.advance(by: seconds)
        window.advance(to: clock.now)
        window.layoutIfNeeded()
    }

    /// Steps frames until the pages and the centre page rest (or `limit` seconds pass).
    func settle(limit: Double = 10) {
        let start = clock.now
        while clock.now - start < limit, album.pager.isScrolling || album.centerPage?.isMoving == true {
            advance(by: Self.frame)
        }
    }

    func touch(_ phase: TouchPhase, _ p: Point, slot: Int = 0) {
        window.dispatch([TouchEvent(slot: slot, phase: phase, location: p, timestamp: clock.now)])
    }

    /// A straight drag at constant speed, one sample per frame, lifting at the end.
    func drag(from a: Point, to b: Point, duration: Double) {
        touch(.began, a)
        let steps = max(1, Int((duration / Self.frame).rounded()))
        for i in 1...steps {
            advance(by: duration / Double(steps))
            touch(.moved, a + (b - a) * (Double(i) / Double(steps)))
        }
        touch(.ended, b)
    }

    func tap(_ p: Point) {
        touch(.began, p)
        advance(by: 0.05)
        touch(.ended, p)
    }

    func doubleTap(_ p: Point) {
        tap(p)
        advance(by: 0.1)
        tap(p)
    }

    func render() -> Bitmap {
        let b = Bitmap(width: Int(window.bounds.width), height: Int(window.bounds.height))
        window.setNeedsDisplayAll()
        window.render(into: Canvas(target: b))
        return b
    }
}

extension Array {
    /// Moves the element at `from` to `to`, shifting those between (as a photo list reorders).
    mutating func move(from: Int, to: Int) {
        insert(remove(at: from), at: to)
    }
}

func solid(_ color: Color, width: Int, height: Int) -> Bitmap {
    let b = Bitmap(width: width, height: height)
    Canvas(target: b).clear(color)
    return b
}
