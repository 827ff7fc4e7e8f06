import Foundation
import PhotoKioskApp
import Testing
import TestSupport

/// Issue 16, item 7: a config file with several mistakes reports every one, in line order, each
/// as `FILE:LINE: option: problem`, and the program exits 78.
@Suite struct ConfigMistakesTests {
    static let text = """
        [display]
        rotation = 45
        [slideshow]
        order = 3
        intervall = 5
        transition = = "slide"
        [cache]
        memory_mb = 1
        [[schedule.period]]
        off = "22:00"
        days = ["mon", "someday"]
        """

    static let expected = [
        "test.toml:2: display.rotation: 45 is not one of 0, 90, 180, 270",
        "test.toml:4: slideshow.order: must be",
        "test.toml:5: slideshow.intervall: unknown option; did you mean slideshow.interval?",
        "test.toml:6: ",
        "test.toml:8: cache.memory_mb: 1 is out of range",
        "test.toml:9: schedule.period.on: each [[schedule.period]] needs both",
        "test.toml:11: schedule.period.days: ",
    ]

    @Test func everyMistakeIsReportedInLineOrder() throws {
        var thrown: ConfigError?
        do { _ = try KioskConfig.parse(Self.text, file: "test.toml") } catch { thrown = error }
        let error = try #require(thrown)
        let lines = error.allMistakes.map(\.description)
        #expect(lines.count == Self.expected.count, "\(lines)")
        for (line, prefix) in zip(lines, Self.expected) {
            #expect(line.hasPrefix(prefix), "\(line) should start with \(prefix)")
        }
        #expect(error.description == lines.joined(separator: "\n"))
        #expect(error.line == 2)
    }

    @Test func aSyntaxErrorDoesNotHideTheMistakesAfterIt() throws {
        var thrown: ConfigError?
        do { _ = try KioskConfig.parse("kiosk = \n[display]\nrotation = 45\n", file: "f") } catch { thrown = error }
        let error = try #require(thrown)
        #expect(error.allMistakes.map(\.line) == [1, 3])
        #expect(error.kind == .syntax)
        #expect(error.laterMistakes.first?.key == "display.rotation")
    }

    @Test func oneMistakeIsOneLine() throws {
        var thrown: ConfigError?
        do { _ = try KioskConfig.parse("[display]\nrotation = 45\n", file: "f") } catch { thrown = error }
        #expect(thrown?.allMistakes.count == 1)
        #expect(thrown?.description == "f:2: display.rotation: 45 is not one of 0, 90, 180, 270")
    }

    /// The program itself: every mistake on stderr, one line each, then exit status 78.
    @Test func theProgramPrintsEveryMistakeAndExits78() throws {
        let program = try #require(builtPhotokiosk(), "photokiosk is built beside the tests")
        let folder = makeTemporaryDirectory("config")
        defer { removeTree(folder) }
        let file = folder + "/test.toml"
        try Self.text.write(toFile: file, atomically: true, encoding: .utf8)

        let run = try runProgram(program, ["run", "--config", file, "--display", "headless"])
        let output = run.errors
        #expect(run.status == 78)
        let lines = output.split(separator: "\n").map(String.init)
        #expect(lines.count == Self.expected.count, "\(output)")
        for (line, prefix) in zip(lines, Self.expected) {
            let withPath = "photokiosk: " + prefix.replacingOccurrences(of: "test.toml", with: file)
            #expect(line.hasPrefix(withPath), "\(line) should start with \(withPath)")
        }
        #expect(!FileManager.default.fileExists(atPath: folder + "/never.png"))
    }
}
