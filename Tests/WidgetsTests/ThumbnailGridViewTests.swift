import Testing
import Graphics
import UI
@testable import Widgets

/// Records what the grid asks for and serves solid-colour thumbnails on demand.
final class RecordingProvider: ThumbnailProvider {
    var loaded: [Int: Bitmap] = [:]
    var failed: Set<Int> = []
    var everWanted: Set<Int> = []
    var lastWanted: [Int: Double] = [:]
    var updates = 0

    func thumbnailState(at index: Int, edge: Int) -> ThumbnailState {
        if failed.contains(index) { return .failed(reason: "test") }
        if let b = loaded[index] { return .image(b) }
        return .loading
    }

    func updateWantedThumbnails(_ distances: [Int: Double], edge: Int) {
        lastWanted = distances
        everWanted.formUnion(distances.keys)
        updates += 1
    }

    static func solid(_ color: Color, size: Int = 64) -> Bitmap {
        let b = Bitmap(width: size, height: size)
        Canvas(target: b).clear(color)
        return b
    }
}

@Suite struct ThumbnailGridViewTests {
    func makeGrid(count: Int, size: Size = Size(width: 1920, height: 1080)) -> (Window, ThumbnailGridView, RecordingProvider) {
        let window = Window(size: size, clock: ManualClock())
        let grid = ThumbnailGridView(frame: Rect(size: size))
        let provider = RecordingProvider()
        grid.itemCount = count
        grid.preferredCellSize = 240
        grid.provider = provider
        window.addSubview(grid)
        window.layoutIfNeeded()
        return (window, grid, provider)
    }

    @Test func tenThousandPhotosWantOnlyAboutThreeScreensOfCells() {
        let (_, grid, provider) = makeGrid(count: 10_000)
        let perScreen = grid.visibleIndices.count
        #expect(perScreen > 0)
        #expect(provider.lastWanted.count <= perScreen * 3 + grid.layout.columns * 3)
        #expect(grid.liveIndices.count == provider.lastWanted.count)
        #expect(provider.everWanted.max()! < perScreen * 3)
    }

    @Test func visibleCellsAreMoreUrgentThanPrefetchedOnes() {
        let (_, grid, provider) = makeGrid(count: 1000)
        grid.contentOffset = Point(x: 0, y: 5000)
        grid.layoutIfNeeded()
        let visible = Set(grid.visibleIndices)
        let worstVisible = visible.map { provider.lastWanted[$0]! }.max()!
        let bestHidden = provider.lastWanted.filter { !visible.contains($0.key) }.map(\.value).min()!
        #expect(worstVisible < bestHidden)
    }

    @Test func scrollingNeverAsksForCellsFarFromTheViewport() {
        let (_, grid, provider) = makeGrid(count: 10_000)
        var offsets: [Double] = []
        for step in 0..<40 { offsets.append(Double(step) * 397) }
        for y in offsets {
            grid.contentOffset = Point(x: 0, y: y)
            grid.layoutIfNeeded()
            let reach = grid.bounds.insetBy(dx: 0, dy: -grid.bounds.height - 1)
            for index in provider.lastWanted.keys {
                #expect(grid.layout.frame(of: index).intersects(reach))
            }
        }
        let maxReach = offsets.last! + 1080 * 2
        #expect(provider.everWanted.allSatisfy { grid.layout.frame(of: $0).minY <= maxReach })
    }

    @Test func cellsAreRecycledNotAccumulated() {
        let (window, grid, _) = makeGrid(count: 5000)
        let initial = grid.subviews.count
        for step in 1...30 {
            grid.contentOffset = Point(x: 0, y: Double(step) * 1000)
            window.layoutIfNeeded()
        }
        // Three viewport heights of rows at most (visible + a screen above + a screen below).
        let rowsAlive = Int((3 * grid.bounds.height / grid.layout.rowPitch).rounded(.up)) + 2
        #expect(initial > 0)
        #expect(grid.subviews.count <= rowsAlive * grid.layout.columns)
    }

    @Test func loadedThumbnailsAppearInTheirCellsAndFailuresShowBroken() throws {
        let (window, grid, provider) = makeGrid(count: 30, size: Size(width: 800, height: 600))
        provider.loaded[0] = RecordingProvider.solid(.red)
        provider.failed.insert(1)
        grid.thumbnailDidChange(at: 0)
        grid.thumbnailDidChange(at: 1)
        let screen = Bitmap(width: 800, height: 600)
        window.render(into: Canvas(target: screen))
        let c0 = grid.layout.frame(of: 0).center, c1 = grid.layout.frame(of: 1), c2 = grid.layout.frame(of: 2).center
        #expect(screen.color(x: Int(c0.x), y: Int(c0.y)) == .red)
        #expect(screen.color(x: Int(c1.minX + 3), y: Int(c1.minY + 3)) == ThumbnailCellView.brokenColor)
        #expect(screen.color(x: Int(c2.x), y: Int(c2.y)) == ThumbnailCellView.placeholderColor)
        #expect(!grid.isVisibleContentLoaded)
    }

    @Test func tapSelectsThePhotoUnderTheFinger() {
        let clock = ManualClock()
        let window = Window(size: Size(width: 800, height: 600), clock: clock)
        let grid = ThumbnailGridView(frame: Rect(x: 0, y: 0, width: 800, height: 600))
        grid.itemCount = 100
        window.addSubview(grid)
        window.layoutIfNeeded()
        grid.contentOffset = Point(x: 0, y: 300)
        window.layoutIfNeeded()
        var selected: [Int] = []
        grid.onSelect = { selected.append($0) }
        let target = grid.layout.frame(of: 7).center - grid.contentOffset
        #expect(window.bounds.contains(target))
        window.dispatch([TouchEvent(slot: 0, phase: .began, location: target, timestamp: clock.now)])
        clock.advance(by: 0.05); window.advance(to: clock.now)
        window.dispatch([TouchEvent(slot: 0, phase: .ended, location: target, timestamp: clock.now)])
        for _ in 0..<40 { clock.advance(by: 1.0 / 60); window.advance(to: clock.now) }
        #expect(selected == [7])
    }

    @Test func resizeKeepsTheFirstVisiblePhotoInPlace() {
        let (window, grid, _) = makeGrid(count: 2000)
        grid.contentOffset = Point(x: 0, y: 20_000)
        window.layoutIfNeeded()
        let first = grid.visibleIndices.first!
        grid.frame = Rect(x: 0, y: 0, width: 1080, height: 1920)
        window.layoutIfNeeded()
        // The photo stays in the top row (its column may change with the new column count).
        #expect(grid.visibleIndices.prefix(grid.layout.columns).contains(first))
    }
}
