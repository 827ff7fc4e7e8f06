import PhotoKioskApp
import Testing

/// `[overlay]`: each part off or in a corner, from the file and from flags, and mistakes named.
@Suite struct OverlayConfigTests {
    @Test func partsTakeCornersAndDefaultToOff() throws {
        #expect(KioskConfig().overlay.isOff)
        let config = try KioskConfig.parse("""
            [overlay]
            clock = "top-right"
            caption = "bottom-left"
            place = "bottom-left"
            """, file: "test.toml")
        #expect(config.overlay.clock == .topRight)
        #expect(config.overlay.dateTaken == .off)
        #expect(config.overlay.caption == .bottomLeft && config.overlay.place == .bottomLeft)
        #expect(!config.overlay.isOff)

        var flags = KioskConfigOverrides()
        flags.overlayClock = .off
        flags.overlayDateTaken = .topLeft
        let merged = try config.applying(flags)
        #expect(merged.overlay.clock == .off && merged.overlay.dateTaken == .topLeft && merged.overlay.caption == .bottomLeft)
    }

    @Test func mistakesAreNamedWithASuggestion() {
        #expect(throws: ConfigError.self) { try KioskConfig.parse("[overlay]\nclock = \"top-rigth\"\n", file: "t.toml") }
        do {
            _ = try KioskConfig.parse("[overlay]\nclock = \"top-rigth\"\ncaptions = \"top-left\"\n", file: "t.toml")
            Issue.record("accepted")
        } catch {
            let text = "\(error)"
            #expect(text.contains("t.toml:2: overlay.clock: \"top-rigth\" is not one of \"off\", \"top-left\", \"top-right\", \"bottom-left\", \"bottom-right\"; did you mean \"top-right\"?"), "\(text)")
            #expect(text.contains("t.toml:3: overlay.captions: unknown option; did you mean overlay.caption?"), "\(text)")
        }
    }
}
