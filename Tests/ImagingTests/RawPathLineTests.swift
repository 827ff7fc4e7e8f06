import Basics
import Graphics
import Imaging
import Testing
import TestSupport

/// `RawPath.escapedLine`: one line of text per path that gives back the same bytes.
@Suite struct RawPathLineTests {
    @Test func utf8StaysReadableAndOtherBytesAreEscaped() {
        #expect(RawPath("/photos/Ünïcödé 📷.jpg").escapedLine == "/photos/Ünïcödé 📷.jpg")
        #expect(RawPath(bytes: Array("caf".utf8) + [0xE9] + Array(".jpg".utf8)).escapedLine == "caf\\xE9.jpg")
        #expect(RawPath("a\\b\nc\rd").escapedLine == "a\\\\b\\nc\\rd")
        // A lone continuation byte and a truncated sequence at the end.
        #expect(RawPath(bytes: [0x80, 0x41, 0xE2, 0x82]).escapedLine == "\\x80A\\xE2\\x82")
    }

    @Test func everyByteStringComesBackExactly() {
        var random = SeededRandom(seed: 16)
        for _ in 0..<2000 {
            let count = Int(random.next() % 24)
            let bytes = (0..<count).map { _ in UInt8(truncatingIfNeeded: random.next()) }
            let line = RawPath(bytes: bytes).escapedLine
            #expect(!line.contains("\n") && !line.contains("\r"))
            #expect(RawPath(escapedLine: line)?.bytes == bytes, "\(bytes)")
        }
    }

    @Test func escapesItNeverWritesAreRefused() {
        #expect(RawPath(escapedLine: "a\\") == nil)
        #expect(RawPath(escapedLine: "a\\t") == nil)
        #expect(RawPath(escapedLine: "a\\xZZ") == nil)
        #expect(RawPath(escapedLine: "a\\x4") == nil)
    }
}
