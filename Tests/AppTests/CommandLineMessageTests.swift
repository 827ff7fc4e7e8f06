import Foundation
import Graphics
import Imaging
import Testing
import TestSupport

/// Issue 30, item 8: every message of the command line as a person meets it, one test each.
/// A rejected value says why; an error that is not about how the command was called comes
/// without the usage text; a missing output folder is named; the headless notice shows only
/// when a screen was wanted; counts read as English; `run --help` shows the defaults.
@Suite(.serialized) struct CommandLineMessageTests {
    /// ArgumentParser writes "USAGE:" or "Usage:" depending on where the error came from.
    static let usageMarker = "usage: "

    /// The folders a test makes, removed after it.
    let scratch = ScratchDirectory()

    func program() throws -> String { try #require(builtPhotokiosk(), "photokiosk is built beside the tests") }

    /// Runs photokiosk with `arguments`, expects it to fail saying `message`, and returns all it
    /// wrote to stderr (for the checks about the usage text).
    @discardableResult
    func refusal(of arguments: [String], says message: String,
                 sourceLocation: SourceLocation = #_sourceLocation) throws -> String {
        let run = try runProgram(try program(), arguments)
        #expect(run.status != 0, "refused", sourceLocation: sourceLocation)
        #expect(run.errors.contains(message), "\(run.errors)", sourceLocation: sourceLocation)
        return run.errors
    }

    /// A folder with `count` small photos.
    func photoFolder(_ count: Int) throws -> String {
        let folder = scratch.newFolder("cli-photos")
        for i in 0..<count {
            let bitmap = Bitmap(width: 64, height: 48)
            Canvas(target: bitmap).clear(Color(rgb: 0x336699 + UInt32(i) * 0x101010))
            try FileReader.write(try JPEGEncoder.encode(bitmap, quality: 90), to: folder + "/photo\(i).jpg")
        }
        return folder
    }

    /// An empty config file, so no machine's /etc/photokiosk/config.toml changes the outcome.
    func emptyConfig() throws -> String {
        let folder = scratch.newFolder("cli-config")
        try "".write(toFile: folder + "/config.toml", atomically: true, encoding: .utf8)
        return folder + "/config.toml"
    }

    @Test func aNegativeIntervalIsRefusedWithItsRange() throws {
        let run = try runProgram(try program(), ["run", "--config", try emptyConfig(), "--display", "headless", "--interval", "-5"])
        #expect(run.status == 78)
        #expect(!run.errors.contains("Missing value"), "\(run.errors)")
        #expect(run.errors.contains("--interval: -5.0 is out of range (1.0 to 86400.0 seconds)"), "\(run.errors)")
    }

    @Test func aWordForANumberSaysItIsNotOne() throws {
        try refusal(of: ["run", "--interval", "ten"], says: "'ten' is invalid for '--interval <interval>': not a number")
        try refusal(of: ["run", "--wake-minutes", "2.5"], says: "'2.5' is invalid for '--wake-minutes <wake-minutes>': not a whole number")
    }

    @Test func aNegativePhotoNumberSaysWhy() throws {
        try refusal(of: ["snapshot", "--photo", "-1", "--out", "x.png"], says: "--photo -1: photos are numbered from 0")
    }

    @Test func anImpossibleModeSaysWhy() throws {
        try refusal(of: ["run", "--mode", "99999x1"], says: "'99999x1' is invalid for '--mode <mode>': width and height must each be 1 to 16384 pixels, not 99999 and 1")
        try refusal(of: ["run", "--mode", "wide"], says: "not WIDTHxHEIGHT in pixels, e.g. 1920x1080")
    }

    @Test func aScheduleWithABadTimeSaysWhy() throws {
        try refusal(of: ["run", "--schedule", "mon-fri 22:30-7"], says: "is invalid for '--schedule <schedule>': expected times \"HH:MM-HH:MM\" (off-on), got \"22:30-7\"")
        try refusal(of: ["run", "--schedule", "someday 22:30-07:00"], says: "\"someday\" is not a day or day range")
    }

    @Test func aMissingOutputFolderIsNamedWithoutUsage() throws {
        let photos = try photoFolder(1)
        let errors = try refusal(of: ["snapshot", "--photos", photos, "--out", "/missing-\(getpid())/x.png"],
                                 says: "--out /missing-\(getpid())/x.png: the folder /missing-\(getpid()) does not exist")
        #expect(!errors.lowercased().contains(Self.usageMarker), "no usage after an error that is not about usage: \(errors)")
        try refusal(of: ["thumbnail", photos + "/photo0.jpg", "--size", "32", "--out", photos + "/no/t.png"], says: "the folder \(photos)/no does not exist")
    }

    @Test func aRuntimeErrorComesWithoutUsage() throws {
        let empty = scratch.newFolder("cli-empty")
        let errors = try refusal(of: ["snapshot", "--photos", empty, "--slideshow", "--timeout", "5", "--out", empty + "/x.png"],
                                 says: "no photos to show: the folders hold no JPEG, PNG, HEIC/HEIF, AVIF or WebP photo")
        #expect(!errors.lowercased().contains(Self.usageMarker), "\(errors)")
        let photos = try photoFolder(1)
        let beyond = try refusal(of: ["snapshot", "--photos", photos, "--photo", "4", "--out", photos + "/x.png"],
                                 says: "--photo 4: there is only 1 photo (numbered from 0)")
        #expect(!beyond.lowercased().contains(Self.usageMarker), "\(beyond)")
    }

    @Test func aUsageErrorStillShowsUsage() throws {
        let run = try runProgram(try program(), ["snapshot", "--out", "x.png", "--at", "2"])
        #expect(run.errors.contains("--at needs --slideshow"))
        #expect(run.errors.lowercased().contains("usage: photokiosk snapshot"), "a mistake in the call shows how to call the command: \(run.errors)")
        let colour = try runProgram(try program(), ["snapshot", "--out", "x.png", "--background", "blue"])
        #expect(colour.status == 78)
        #expect(colour.errors.contains("photokiosk: command line: --background needs a colour like #000000, got \"blue\""), "\(colour.errors)")
        #expect(!colour.errors.lowercased().contains("usage: photokiosk run"), "never the usage of another command: \(colour.errors)")
    }

    @Test func theHeadlessNoticeOnlyWhenAScreenWasWanted() throws {
        let photos = try photoFolder(2)
        let run = try runProgram(try program(), ["run", "--config", try emptyConfig(), "--display", "headless", "--photos", photos,
                                                 "--screenshot", photos + "/screen.png", "--settle-timeout", "20"])
        #expect(run.status == 0, "\(run.errors)")
        #expect(!run.output.contains("No display device could be used"), "\(run.output)")
        #expect(run.output.contains("The headless screen is in \(photos)/screen.png"), "\(run.output)")
    }

    @Test func countsAreInCorrectEnglish() throws {
        let photos = try photoFolder(1)
        let run = try runProgram(try program(), ["run", "--config", try emptyConfig(), "--display", "headless", "--photos", photos,
                                                 "--screenshot", photos + "/screen.png", "--settle-timeout", "20", "--log-level", "info"])
        #expect(run.errors.contains("library: 1 photo in 1 folder"), "\(run.errors)")
        #expect(!run.errors.contains("1 folders"))
    }

    @Test func runHelpShowsTheDefaultsOfIntervalAndIdleTimeout() throws {
        let run = try runProgram(try program(), ["run", "--help"])
        let help = run.output.split(separator: "\n").map(String.init)
        let interval = help.firstIndex { $0.contains("--interval <interval>") }
        let idle = help.firstIndex { $0.contains("--idle-timeout <idle-timeout>") }
        #expect(interval != nil && idle != nil)
        if let interval { #expect(help[interval...].prefix(3).joined().contains("default: 10)"), "\(help[interval...].prefix(3))") }
        if let idle { #expect(help[idle...].prefix(3).joined().contains("default: 120)"), "\(help[idle...].prefix(3))") }
        // Options read through a transform lose ArgumentParser's own default note; theirs is in the text.
        #expect(run.output.contains("(default: 1920x1080)") && run.output.contains("(default: 60)"), "\(run.output)")
    }

    @Test func everyDocumentedFlagIsAFlagOfRun() throws {
        let page = try runProgram(try program(), ["config-reference"])
        #expect(page.status == 0)
        let help = try runProgram(try program(), ["run", "--help"]).output
        let flags = page.output.matches(of: #/\| `(--[a-z-]+)` \|/#).map { String($0.output.1) }
        #expect(flags.count > 40, "\(flags.count) flags in the reference")
        for flag in Set(flags) { #expect([" ", ",", "/"].contains { help.contains(flag + $0) }, "\(flag) is not in run --help") }
    }
}
