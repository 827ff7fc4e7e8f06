import Imaging
import Testing
import TestSupport

/// Issue 35: a clip uploaded through the remote page is checked like a photo (GStreamer reads
/// its first frame) and kept under its name; a damaged one is refused with nothing left behind.
@Suite("Clip uploads", .serialized, .enabled(if: ClipFixture.canRun,
                                             "GStreamer's tools or plugins are missing (scripts/install-deps.sh installs them)"))
struct ClipUploadTests {
    @Test("a WebM clip is kept under its name; one cut short is refused")
    func uploads() throws {
        let f = try RemoteFixture()
        let scratch = ScratchDirectory()
        let path = try ClipFixture.write(pattern: "red", width: 160, height: 120, frames: 15, as: .webm, to: scratch.path.description,
                                         name: "party")
        let clip = try FileReader.read(path: path)
        let reply = try #require(try f.upload([(Array("party.webm".utf8), clip)]))
        #expect(reply.status == 201, "\(reply.text)")
        #expect(f.names(in: f.uploads) == ["party.webm"])
        let damaged = try #require(try f.upload([(Array("cut.webm".utf8), Array(clip.prefix(200)))]))
        #expect(damaged.status == 415, "\(damaged.text)")
        #expect(f.names(in: f.uploads) == ["party.webm"], "nothing of the refused clip stays")
    }
}
