import SystemAccess
import TestSupport
import SystemPackage
import Testing
@testable import PhotoKioskApp

/// A read-only root with only the state folder writable (issue 33 item 4): the cache moves into
/// the state folder unless the config named one; the read-only test itself asks the kernel.
@Suite struct ReadOnlyRootTests {
    let paths = KioskPaths(environment: [:], config: KioskConfig())

    @Test func aReadOnlyCacheFolderMovesIntoTheStateFolder() {
        let chosen = paths.usableCacheDirectory(configured: false, isReadOnly: { $0.hasPrefix("/var/cache") })
        #expect(chosen.directory == "/var/lib/photokiosk/cache")
        #expect(chosen.movedFrom == "/var/cache/photokiosk")
    }

    @Test func aWritableCacheFolderStays() {
        let chosen = paths.usableCacheDirectory(configured: false, isReadOnly: { _ in false })
        #expect(chosen.directory == "/var/cache/photokiosk" && chosen.movedFrom == nil)
    }

    @Test func aConfiguredCacheOrAReadOnlyStateFolderStays() {
        #expect(paths.usableCacheDirectory(configured: true, isReadOnly: { _ in true }).movedFrom == nil)
        #expect(paths.usableCacheDirectory(configured: false, isReadOnly: { _ in true }).movedFrom == nil)
        #expect(paths.usableCacheDirectory(configured: false, isReadOnly: { $0.hasPrefix("/var/cache") ? nil : false }).movedFrom == nil)
    }

    /// A test machine's read-only mounts vary, so only what is sure: a scratch folder is
    /// writable, and a missing path is asked about through its nearest existing folder.
    @Test func theKernelIsAskedThroughTheNearestExistingFolder() {
        let scratch = ScratchDirectory()
        let folder = scratch.newFolder("rw")
        #expect(FileSystemCalls.isOnReadOnlyFileSystem(FilePath(folder)) == false)
        #expect(FileSystemCalls.isOnReadOnlyFileSystem(FilePath(folder + "/not/yet/there")) == false)
    }
}
