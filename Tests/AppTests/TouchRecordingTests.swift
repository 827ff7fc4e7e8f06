import Testing
@testable import PhotoKioskApp

@Suite struct TouchRecordingTests {
    let sample = TouchRecording(
        device: .init(name: "ILITEK \"Multi\" Touch", sizeMillimetres: (154, 86.5), screen: (1280, 800), rotation: 90,
                      calibration: [0, -1, 1, 1, 0, 0]),
        entries: [
            .init(time: 0, event: .down(slot: 0, x: 0.25, y: 0.5)),
            .init(time: 0, event: .down(slot: 1, x: 0.75, y: 0.5)),
            .init(time: 0, event: .frame),
            .init(time: 0.016667, event: .move(slot: 0, x: 0.2, y: 0.123457)),
            .init(time: 0.016667, event: .frame),
            .init(time: 0.033333, event: .up(slot: 0)),
            .init(time: 0.033333, event: .cancel(slot: 1)),
            .init(time: 0.033333, event: .frame),
            .init(time: 0.1, event: .key(name: "escape", pressed: true)),
            .init(time: 0.5, event: .mark("after-swipe")),
        ])

    @Test func roundTripKeepsEveryEvent() throws {
        let text = sample.serialized()
        let back = try TouchRecording(parsing: text)
        #expect(back.entries == sample.entries)
        #expect(back.device?.screen.width == 1280 && back.device?.screen.height == 800)
        #expect(back.device?.rotation == 90)
        #expect(back.device?.calibration == [0, -1, 1, 1, 0, 0])
        #expect(back.device?.name == "ILITEK 'Multi' Touch")
        #expect(back.device?.sizeMillimetres?.height == 86.5)
        #expect(back.serialized() == TouchRecording(device: back.device, entries: back.entries).serialized())
    }

    @Test func formatIsOneEventPerLine() {
        let lines = sample.serialized().split(separator: "\n")
        #expect(lines[0] == "# photokiosk touch recording v1")
        #expect(lines[2] == "0.000000 down 0 0.250000 0.500000")
        #expect(lines.last == "0.500000 mark after-swipe")
    }

    @Test(arguments: [
        ("0.1 jump 0", 1, "unknown event"),
        ("x down 0 0 0", 1, "expected"),
        ("0.2 frame\n0.1 frame", 2, "backwards"),
        ("0.1 down 0 0.5", 1, "takes 3 values"),
        ("0.1 down 99 0.5 0.5", 1, "bad slot"),
        ("device name=\"x\"", 1, "screen=WxH"),
    ])
    func errorsNameTheLine(text: String, line: Int, fragment: String) {
        do {
            _ = try TouchRecording(parsing: text)
            Issue.record("parsed invalid text: \(text)")
        } catch let e as TouchRecordingError {
            #expect(e.line == line)
            #expect(e.message.contains(fragment), "\(e.message)")
        } catch {
            Issue.record("unexpected \(error)")
        }
    }
}
