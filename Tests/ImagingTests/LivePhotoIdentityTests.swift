import Testing
import TestSupport
@testable import Imaging

/// Issue 35 item 2: the halves of a Live Photo are confirmed by the content identifier in both
/// files; halves whose identifiers differ are not one, and a half without one decides nothing.
@Suite("Live Photo identity from the files")
struct LivePhotoIdentityTests {
    let scratch = ScratchDirectory()
    static let id = "FFCBAC24-E547-4BBC-AF47-38B1A3D845E3"
    static let other = "0A1B2C3D-E547-4BBC-AF47-38B1A3D845E3"

    func still(_ name: String, _ identifier: String?) throws -> RawPath {
        let path = scratch.path.appending(name)
        writeFile(path, try LivePhotoFixtures.stillJPEG(identifier: identifier))
        return path
    }

    func clip(_ name: String, _ identifier: String?) -> RawPath {
        let path = scratch.path.appending(name)
        writeFile(path, LivePhotoFixtures.movie(identifier: identifier))
        return path
    }

    @Test("same identifiers match, different ones do not, a missing one is unknown")
    func matches() throws {
        let still = try still("IMG_1.JPG", Self.id)
        #expect(LivePhotoIdentity.stillIdentifier(path: still) == Self.id)
        #expect(LivePhotoIdentity.clipIdentifier(path: clip("IMG_1.MOV", Self.id)) == Self.id)
        #expect(LivePhotoIdentity.match(still: still, clip: clip("IMG_1.MOV", Self.id)) == .same)
        #expect(LivePhotoIdentity.match(still: still, clip: clip("lower.MOV", Self.id.lowercased())) == .same,
                "compared without regard to case")
        #expect(LivePhotoIdentity.match(still: still, clip: clip("other.MOV", Self.other)) == .different)
        #expect(LivePhotoIdentity.match(still: still, clip: clip("none.MOV", nil)) == .unknown)
        #expect(LivePhotoIdentity.match(still: try self.still("plain.JPG", nil), clip: clip("x.MOV", Self.id)) == .unknown)
        #expect(LivePhotoIdentity.match(still: still, clip: scratch.path.appending("missing.MOV")) == .unknown)
        #expect(LivePhotoIdentity.match(still: scratch.path.appending("missing.JPG"), clip: clip("y.MOV", Self.id)) == .unknown)
    }
}
