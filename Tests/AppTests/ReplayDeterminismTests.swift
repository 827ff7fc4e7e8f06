import TestSupport
import Testing
import Glibc
import Graphics
import Imaging
import Platform
import UI
@testable import PhotoKioskApp
import Widgets

/// A fast replay runs on a virtual clock that stands still while photos decode, so the same
/// recording gives the same pixels and the same gesture report every time.
@Suite struct ReplayDeterminismTests {
    static let colors: [Color] = [.red, .green, .blue, Color(rgb: 0xFFFF00), Color(rgb: 0x00FFFF), Color(rgb: 0xFF00FF)]

    /// The folders a test makes, removed with this value.
    let scratch = ScratchDirectory()

    func makeFolder(photoCount: Int) throws -> String {
        let dir = scratch.newFolder("replay")
        for i in 0..<photoCount {
            let b = Bitmap(width: 320, height: 200)
            Canvas(target: b).clear(Self.colors[i % Self.colors.count])
            Canvas(target: b).fill(Rect(x: 20 + Double(i) * 10, y: 30, width: 60, height: 60), color: .white)
            try FileReader.write(try JPEGEncoder.encode(b, options: .init(quality: 90)), to: dir + "/photo\(100 + i).jpg")
        }
        return dir
    }

    /// A pan up the grid with a flick, a pinch, then a tap that opens a photo, with marks.
    static func recording() -> TouchRecording {
        var entries: [TouchRecording.Entry] = []
        var t = 0.0
        func add(_ e: TouchRecording.Event) { entries.append(.init(time: t, event: e)) }
        add(.down(slot: 0, x: 0.5, y: 0.85)); add(.frame)
        for i in 1...15 { t += 0.012; add(.move(slot: 0, x: 0.5, y: 0.85 - Double(i) * 0.03)); add(.frame) }
        t += 0.012; add(.up(slot: 0)); add(.frame)
        t += 0.3; add(.mark("flicking"))
        t += 2; add(.down(slot: 0, x: 0.45, y: 0.5)); add(.down(slot: 1, x: 0.55, y: 0.5)); add(.frame)
        for i in 1...10 { t += 0.016; add(.move(slot: 0, x: 0.45 - Double(i) * 0.01, y: 0.5)); add(.move(slot: 1, x: 0.55 + Double(i) * 0.01, y: 0.5)); add(.frame) }
        t += 0.016; add(.up(slot: 0)); add(.up(slot: 1)); add(.frame)
        // The pinch catches the flick on a whole pixel (630), which puts y 0.38 in the gap under
        // a row (5 columns of 121 px, rows 130 px apart); 0.42 is inside the next row's cell.
        t += 1; add(.down(slot: 0, x: 0.3, y: 0.42)); add(.frame)
        t += 0.07; add(.up(slot: 0)); add(.frame)
        t += 1; add(.mark("opened"))
        return TouchRecording(device: .init(name: "Scripted", sizeMillimetres: (154, 86), screen: (1280, 800)), entries: entries)
    }

    struct Outcome: Equatable {
        var pixels: [UInt32]
        var marks: [[UInt32]]
        var report: [String]
        var viewerIndex: Int?
    }

    /// How many pixels differ (short failure messages).
    func differing(_ a: [UInt32], _ b: [UInt32]) -> Int {
        zip(a, b).reduce(abs(a.count - b.count)) { $0 + ($1.0 == $1.1 ? 0 : 1) }
    }

    func snapshot(_ b: Bitmap) -> [UInt32] {
        var out: [UInt32] = []
        out.reserveCapacity(b.width * b.height)
        for y in 0..<b.height { for x in 0..<b.width { out.append(b.pixel(x: x, y: y)) } }
        return out
    }

    func replay(_ recording: TouchRecording, folder: String, size: Size, rotation: Rotation = .none) throws -> Outcome {
        var config = KioskConfig()
        config.library.thumbnailSize = 200   // points: 150 px at 640x400's chrome scale (0.75)
        let loop = try EventLoop(signals: [])
        let clock = ManualClock(now: loop.now)
        let display = HeadlessDisplay(width: Int(size.width), height: Int(size.height))
        let screen = TouchLabScreen(content: .photos(config: config, folders: [folder], thumbnailCacheDirectory: nil),
                                    display: display, loop: loop, logger: .init(label: "test"), clock: clock,
                                    showsOverlay: true, allowsToggle: false)
        try screen.start()
        let replayer = Replayer(recording: recording, geometry: RecordingGeometry(logicalSize: size, rotation: rotation),
                                host: screen.host, pace: .fast(clock), deliver: { screen.handle($0) }, isSettled: { screen.isSettled })
        var marks: [[UInt32]] = []
        replayer.onMark = { _ in marks.append(self.snapshot(display.frameBuffer)) }
        try replayer.run()
        return Outcome(pixels: snapshot(display.frameBuffer), marks: marks, report: screen.lab.reportLines(from: replayer.startTime ?? 0),
                       viewerIndex: screen.app?.album?.centerPageIndex)
    }

    @Test func theSameRecordingGivesTheSamePixelsAndReportTwice() throws {
        let folder = try makeFolder(photoCount: 40)
        let recording = try TouchRecording(parsing: Self.recording().serialized())
        let first = try replay(recording, folder: folder, size: Size(width: 640, height: 400))
        let second = try replay(recording, folder: folder, size: Size(width: 640, height: 400))
        #expect(first.report == second.report)
        #expect(first.marks.count == 2)
        #expect(zip(first.marks, second.marks).allSatisfy { differing($0, $1) == 0 }, "the screens at the marks differ")
        #expect(differing(first.pixels, second.pixels) == 0, "the final screens differ")
        // The report names what the gesture stack saw, and the tap opened a photo.
        #expect(first.report.count == 3, "\(first.report)")
        #expect(first.report.first?.contains(" pan 0.0,") ?? false)
        #expect(first.report.contains { $0.contains("pinch scale 3.000") })
        #expect(first.report.last?.hasSuffix("tap 192.0,168.0") ?? false)
        #expect(first.viewerIndex != nil)
        #expect(differing(first.marks[0], first.marks[1]) > 1000, "the photo opened between the marks")
    }

    @Test func aScriptedTouchTestReplaysIntoTheTouchTestScreen() throws {
        // Nine taps, each 2 mm to the right of its target on a 154 mm wide panel.
        let size = Size(width: 1280, height: 800)
        let targets = TouchTestSession.gridTargets(size: size)
        var entries: [TouchRecording.Entry] = []
        var t = 0.0
        for target in targets {
            let x = target.x / size.width + 2 / 154.0, y = target.y / size.height
            entries.append(.init(time: t, event: .down(slot: 0, x: x, y: y)))
            entries.append(.init(time: t, event: .frame))
            entries.append(.init(time: t + 0.08, event: .up(slot: 0)))
            entries.append(.init(time: t + 0.08, event: .frame))
            t += 0.7
        }
        let recording = TouchRecording(device: .init(name: "Scripted", sizeMillimetres: (154, 86), screen: (1280, 800)), entries: entries)
        let loop = try EventLoop(signals: [])
        let clock = ManualClock(now: loop.now)
        let display = HeadlessDisplay(width: 1280, height: 800)
        let screen = TouchLabScreen(content: .touchTest, display: display, loop: loop, logger: .init(label: "test"), clock: clock,
                                    showsOverlay: true, allowsToggle: false)
        try screen.start()
        let view = try #require(screen.touchTest)
        view.setPanel(millimetres: Size(width: 154, height: 86), calibration: [1, 0, 0, 0, 1, 0], name: "Scripted")
        try Replayer(recording: recording, geometry: RecordingGeometry(logicalSize: size, rotation: .none), host: screen.host,
                     pace: .fast(clock), deliver: { screen.handle($0) }).run()
        #expect(view.session.isComplete)
        let report = view.session.reportLines(deviceName: view.deviceName)
        #expect(report.contains("mean offset 2.0,0.0 mm"))
        #expect(report.contains { $0.contains("LIBINPUT_CALIBRATION_MATRIX}=\"1.000000 0.000000 -0.012987 0.000000 1.000000 0.000000\"") })
        #expect(screen.lab.gestures.count == 9, "every target tap is a tap for the gesture stack too")
    }
}
