import Foundation
import Testing
import TestSupport

/// `photokiosk prepare-clips` writes GStreamer's plugin registry in its own process, so the
/// kiosk's first clip reads it instead of loading every plugin (issue 35 item 4).
@Suite(.serialized) struct PrepareClipsCommandTests {
    func program() throws -> String { try #require(builtPhotokiosk(), "photokiosk is built beside the tests") }

    /// Where this machine's GStreamer library would be (Debian's multiarch folders): without it
    /// the tests that need GStreamer are skipped, and say so.
    static let gstreamerInstalled = ["x86_64-linux-gnu", "aarch64-linux-gnu", "arm-linux-gnueabihf"].contains {
        FileManager.default.fileExists(atPath: "/usr/lib/\($0)/libgstreamer-1.0.so.0")
    }

    @Test(.enabled(if: gstreamerInstalled, "GStreamer is not installed on this machine"))
    func writesTheRegistryWhereGSTREGISTRYSaysThenFindsItCurrent() throws {
        let root = makeTemporaryDirectory("prepare-clips")
        defer { removeTree(root) }
        let registry = root + "/gstreamer-registry.bin"
        let first = try runProgram("/usr/bin/env", ["GST_REGISTRY_1_0=\(registry)", try program(), "prepare-clips"])
        #expect(first.status == 0, "\(first.errors)")
        #expect(first.output.hasPrefix("GStreamer registry \(registry): written ("), "\(first.output)")
        let size = try #require(try FileManager.default.attributesOfItem(atPath: registry)[.size] as? Int)
        #expect(size > 1024, "a registry of \(size) bytes lists no plugins")
        // Current now: GStreamer read it and had nothing to add (the kiosk's case after the package).
        let second = try runProgram(try program(), ["prepare-clips", "--registry", registry])
        #expect(second.status == 0, "\(second.errors)")
        #expect(second.output.hasPrefix("GStreamer registry \(registry): already up to date ("), "\(second.output)")
    }

    @Test func aFolderItCannotWriteFailsWithTheReason() throws {
        let registry = "/nonexistent-\(getpid())/gstreamer-registry.bin"
        let run = try runProgram(try program(), ["prepare-clips", "--registry", registry])
        #expect(run.status != 0)
        #expect(run.errors.contains("cannot write GStreamer's registry \(registry)"), "\(run.errors)")
        #expect(run.errors.contains("No such file or directory"), "\(run.errors)")
    }

    /// The default, the unit's GST_REGISTRY_1_0 and the postinst's must be one path, or the kiosk
    /// reads a registry nobody prepared.
    @Test func theServiceThePackageAndTheCommandNameOneRegistry() throws {
        let checkout = "/" + String(#filePath).split(separator: "/").dropLast(3).joined(separator: "/")
        let help = try runProgram(try program(), ["prepare-clips", "--help"]).output
        let path = "/var/cache/photokiosk/gstreamer-registry.bin"
        #expect(help.replacingOccurrences(of: "\n", with: " ").contains(path), "\(help)")
        let unit = try String(contentsOfFile: checkout + "/deploy/photokiosk.service", encoding: .utf8)
        #expect(unit.contains("GST_REGISTRY_1_0=\(path)"))
        let postinst = try String(contentsOfFile: checkout + "/debian/photokiosk.postinst", encoding: .utf8)
        #expect(postinst.contains("GST_REGISTRY_1_0=\(path)") && postinst.contains("prepare-clips"))
        let triggers = try String(contentsOfFile: checkout + "/debian/photokiosk.triggers", encoding: .utf8)
        for folder in ["/usr/lib/x86_64-linux-gnu/gstreamer-1.0", "/usr/lib/aarch64-linux-gnu/gstreamer-1.0"] {
            #expect(triggers.contains("interest-noawait \(folder)\n"), "no trigger on \(folder)")
        }
    }
}
