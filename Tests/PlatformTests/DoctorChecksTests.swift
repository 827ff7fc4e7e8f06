import Glibc
import Platform
import Testing
import TestSupport

/// Issue 30, item 7: the checks behind `doctor` — a photo folder read by another user (the
/// service's), and the time zone the schedule runs on.
@Suite struct DoctorChecksTests {
    /// A user who owns nothing and belongs to no group of the test's files.
    static let stranger = FolderAccess.Account(name: "stranger", uid: 4_000_123, groups: [4_000_123])

    @Test func aFolderOthersMayListIsReadable() throws {
        let root = makeTemporaryDirectory("access")
        defer { removeTree(root) }
        try #require(mkdir(root + "/photos", 0o755) == 0)
        chmod(root, 0o755)
        #expect(FolderAccess.problem(listing: root + "/photos", as: Self.stranger) == nil)
    }

    @Test func aFolderWithoutReadPermissionIsNamed() throws {
        let root = makeTemporaryDirectory("access")
        defer { removeTree(root) }
        chmod(root, 0o755)
        try #require(mkdir(root + "/photos", 0o700) == 0)
        #expect(FolderAccess.problem(listing: root + "/photos", as: Self.stranger)
                == "\(root)/photos: no read permission for stranger")
        // The owner's group gets it through the group bits.
        var member = Self.stranger
        member.groups.append(getegid())
        chmod(root + "/photos", 0o750)
        #expect(FolderAccess.problem(listing: root + "/photos", as: member) == nil)
    }

    @Test func aClosedFolderAboveStopsTheWay() throws {
        let root = makeTemporaryDirectory("access")
        defer { chmod(root + "/closed", 0o755); removeTree(root) }
        chmod(root, 0o755)
        try #require(mkdir(root + "/closed", 0o755) == 0)
        try #require(mkdir(root + "/closed/photos", 0o755) == 0)
        chmod(root + "/closed", 0o700)
        #expect(FolderAccess.problem(listing: root + "/closed/photos", as: Self.stranger)
                == "\(root)/closed: no search permission for stranger")
    }

    @Test func aMissingFolderIsSaidToBeMissing() {
        #expect(FolderAccess.problem(listing: "/no-such-folder-\(getpid())/photos", as: Self.stranger)
                == "/no-such-folder-\(getpid()) does not exist")
    }

    @Test func theZoneComesFromTheLocaltimeLink() throws {
        let root = makeTemporaryDirectory("zone")
        defer { removeTree(root) }
        try #require(symlink("/usr/share/zoneinfo/Europe/Berlin", root + "/localtime") == 0)
        let (zone, source) = TimeSettings.zone(environment: nil, localtime: root + "/localtime")
        #expect(zone == "Europe/Berlin")
        #expect(source == root + "/localtime")
    }

    @Test func tzOverridesTheLink() {
        #expect(TimeSettings.zone(environment: ":Europe/Paris", localtime: "/etc/localtime").0 == "Europe/Paris")
        #expect(TimeSettings.zone(environment: "America/New_York", localtime: "/etc/localtime").0 == "America/New_York")
    }

    @Test func noLocaltimeMeansUTC() {
        let (zone, source) = TimeSettings.zone(environment: nil, localtime: "/no-such-\(getpid())/localtime")
        #expect(zone == nil)
        #expect(source.hasSuffix(": UTC"))
    }

    @Test func theClockStatusIsRead() {
        // Synchronised or not depends on the machine; that the kernel answered does not.
        #expect(TimeSettings.current().isSynchronized != nil)
    }
}
