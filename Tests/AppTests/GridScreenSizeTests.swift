import Testing
import Graphics
import Imaging
import Platform
import TestSupport
@testable import PhotoKioskApp

/// Issue 30 item 6: the kiosk's grid on the common panels, with the default thumbnail size in
/// points: whole rows on screen (nothing cut at the bottom), every visible cell a photo, and a
/// PNG of each in /tmp to look at.
@Suite struct GridScreenSizeTests {
    static let colors: [Color] = [.red, .green, .blue, Color(rgb: 0xFFFF00), Color(rgb: 0x00FFFF), Color(rgb: 0xFF00FF)]

    struct Case: CustomStringConvertible, Sendable {
        var width: Int, height: Int
        var millimetres: Size?
        var columns: Int, rows: Int
        var description: String { "\(width)x\(height)" }
    }

    @Test("Whole rows of photos, nothing cut at the bottom", arguments: [
        Case(width: 800, height: 480, millimetres: Size(width: 154, height: 86), columns: 7, rows: 4),
        Case(width: 480, height: 800, millimetres: Size(width: 86, height: 154), columns: 3, rows: 5),
        Case(width: 320, height: 240, millimetres: nil, columns: 3, rows: 2),
    ])
    func grid(at size: Case) throws {
        let scratch = ScratchDirectory()
        for i in 0..<40 {
            let bitmap = Bitmap(width: 160, height: 120)
            Canvas(target: bitmap).clear(Self.colors[i % Self.colors.count])
            scratch.file(String(format: "photo%02d.jpg", i), bytes: try JPEGEncoder.encode(bitmap, options: .init(quality: 95)))
        }
        let display = HeadlessDisplay(width: size.width, height: size.height)
        display.physicalSize = size.millimetres
        let app = KioskApp(config: KioskConfig(), folders: [scratch.path.description], display: display,
                           loop: try EventLoop(signals: []), thumbnailCacheDirectory: nil, logger: .init(label: "test"))
        try app.start()
        #expect(try app.runUntilSettled(timeout: 30))
        try PNGEncoder.write(display.frameBuffer, to: "/tmp/photokiosk-grid-\(size).png")
        let layout = app.grid.layout
        #expect(layout.columns == size.columns)
        let background = display.frameBuffer.color(x: 0, y: 0)
        for index in 0..<(size.columns * size.rows) {
            let frame = layout.frame(of: index)
            #expect(frame.maxY <= Double(size.height) + 1e-6, "cell \(index) cut at the bottom")
            let shown = display.frameBuffer.color(x: Int(frame.midX), y: Int(frame.midY))
            let expected = Self.colors[index % Self.colors.count]
            #expect(abs(Int(shown.red) - Int(expected.red)) < 40 && abs(Int(shown.green) - Int(expected.green)) < 40
                    && abs(Int(shown.blue) - Int(expected.blue)) < 40, "cell \(index): \(shown)")
        }
        // Below the last whole row only the gap: no part of a next row peeks in.
        let gapTop = Int(layout.frame(of: size.columns * size.rows - 1).maxY.rounded(.up)) + 1
        for y in gapTop..<size.height {
            for x in stride(from: 0, to: size.width, by: 7) {
                #expect(display.frameBuffer.color(x: x, y: y) == background, "(\(x), \(y)) is not the background")
            }
        }
    }
}
