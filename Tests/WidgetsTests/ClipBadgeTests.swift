import Graphics
import Testing
import UI
@testable import Widgets

/// Issue 35: a clip's grid cell shows its length at the bottom right, on a dark pill.
@Suite struct ClipBadgeTests {
    @Test("lengths read as phones show them", arguments: [
        (Duration.zero, "0:00"), (.milliseconds(300), "0:01"), (.milliseconds(7_400), "0:07"), (.milliseconds(7_500), "0:08"),
        (.seconds(59), "0:59"), (.seconds(60), "1:00"), (.seconds(62), "1:02"), (.seconds(12 * 60 + 30), "12:30"),
        (.seconds(3599), "59:59"), (.seconds(3600), "1:00:00"), (.seconds(3723), "1:02:03"), (.seconds(36_000), "10:00:00"),
    ])
    func format(duration: Duration, text: String) {
        #expect(ClipDurationText.format(duration) == text)
    }

    func render(clipDuration: Duration?, isLivePhoto: Bool = false) throws -> Bitmap {
        let window = Window(size: Size(width: 200, height: 200), clock: ManualClock())
        let cell = ThumbnailCellView(frame: Rect(x: 0, y: 0, width: 200, height: 200))
        cell.font = try Font.standard(pixelSize: 14)
        cell.state = .image(RecordingProvider.solid(Color(rgb: 0xC0C0C0), size: 200))
        cell.clipDuration = clipDuration
        cell.isLivePhoto = isLivePhoto
        window.addSubview(cell)
        let target = Bitmap(width: 200, height: 200)
        window.render(into: Canvas(target: target))
        return target
    }

    /// Pixels of the bottom-right corner darker than the poster (the pill) and lighter (the text).
    func corner(_ bitmap: Bitmap) -> (dark: Int, light: Int) {
        var dark = 0, light = 0
        for y in 150..<200 {
            for x in 120..<200 {
                let grey = Int(bitmap.pixel(x: x, y: y) & 0xFF)
                if grey < 0x70 { dark += 1 }
                if grey > 0xE0 { light += 1 }
            }
        }
        return (dark, light)
    }

    @Test("a clip's cell draws a dark pill with light text in its bottom-right corner; a still's does not")
    func badgeDrawn() throws {
        let clip = corner(try render(clipDuration: .seconds(62)))
        #expect(clip.dark > 200, "\(clip)")
        #expect(clip.light > 20, "\(clip)")
        let still = corner(try render(clipDuration: nil))
        #expect(still.dark == 0 && still.light == 0, "\(still)")
        // The rest of the poster is untouched.
        let top = try render(clipDuration: .seconds(62))
        #expect(top.pixel(x: 20, y: 20) & 0xFF_FFFF == 0xC0C0C0)
    }

    @Test("a Live Photo's cell draws a LIVE pill in the same corner; a clip's length wins over it")
    func liveBadgeDrawn() throws {
        let live = try render(clipDuration: nil, isLivePhoto: true)
        let badge = corner(live)
        #expect(badge.dark > 200 && badge.light > 20, "\(badge)")
        #expect(live.pixel(x: 20, y: 20) & 0xFF_FFFF == 0xC0C0C0)
        // "LIVE" and "1:02" are different text: the pills' pixels differ.
        let liveClip = try render(clipDuration: .seconds(62), isLivePhoto: true)
        let clip = try render(clipDuration: .seconds(62))
        let pixels = { (bitmap: Bitmap) in (150..<200).flatMap { y in (120..<200).map { bitmap.pixel(x: $0, y: y) } } }
        #expect(pixels(liveClip) == pixels(clip))
        #expect(pixels(live) != pixels(clip))
    }

    final class ClipProvider: ThumbnailProvider {
        var durations: [Int: Duration] = [:]
        var live: Set<Int> = []
        func isLivePhoto(at index: Int) -> Bool { live.contains(index) }
        func thumbnailState(at index: Int, edge: Int) -> ThumbnailState { .image(RecordingProvider.solid(.red)) }
        func updateWantedThumbnails(_ distances: [Int: Double], edge: Int) {}
        func clipDuration(at index: Int) -> Duration? { durations[index] }
    }

    @Test("the grid gives each cell its clip's length, also when the thumbnail arrives later")
    func gridPassesDurations() {
        let window = Window(size: Size(width: 800, height: 600), clock: ManualClock())
        let grid = ThumbnailGridView(frame: Rect(x: 0, y: 0, width: 800, height: 600))
        let provider = ClipProvider()
        provider.durations[1] = .seconds(7)
        grid.provider = provider
        grid.itemCount = 4
        window.addSubview(grid)
        window.layoutIfNeeded()
        #expect(grid.cell(at: 1)?.clipDuration == .seconds(7))
        #expect(grid.cell(at: 0)?.clipDuration == nil)
        provider.durations[2] = .seconds(90)
        grid.thumbnailDidChange(at: 2, to: .image(RecordingProvider.solid(.blue)))
        #expect(grid.cell(at: 2)?.clipDuration == .seconds(90))
        #expect(grid.cell(at: 3)?.isLivePhoto == false)
        provider.live = [3]
        grid.reloadData()
        #expect(grid.cell(at: 3)?.isLivePhoto == true && grid.cell(at: 2)?.isLivePhoto == false)
    }
}
