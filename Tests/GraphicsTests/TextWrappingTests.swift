import Testing
@testable import Graphics

/// Font.wrapped: the no-photos and info screens' paragraphs, and the overlay's date.
@Suite struct TextWrappingTests {
    @Test func wrapsAtSpacesAndBreaksLongPathsAfterASlash() throws {
        let font = try Font.standard(pixelSize: 14)
        let width = font.width(of: "Copy photos into the")
        let lines = font.wrapped("Copy photos into the folder /var/lib/photokiosk/photos/from-the-phone now", toFit: width)
        #expect(lines.allSatisfy { font.width(of: $0) <= width }, "\(lines)")
        let text = "Copy photos into the folder /var/lib/photokiosk/photos/from-the-phone now"
        #expect(lines.joined().filter { $0 != " " } == text.filter { $0 != " " }, "nothing lost")
        #expect(lines.contains { $0.hasSuffix("/") }, "a path broken after a slash: \(lines)")
        #expect(lines.first == "Copy photos into the")
    }

    @Test func aLineThatFitsStaysWhole() throws {
        let font = try Font.standard(pixelSize: 14)
        #expect(font.wrapped("Friday 11/27/2026", toFit: 1000) == ["Friday 11/27/2026"])
        #expect(font.wrapped("", toFit: 100) == [])
        #expect(font.wrapped("x", toFit: 0.5) == ["x"], "at least one character a line")
    }
}
