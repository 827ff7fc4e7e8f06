import Glibc
import Testing
import TestSupport

/// Runs `body` with the folder `relative` in `scratch` read-only: as root a read-only tmpfs over
/// it (root may write anywhere else), unmounted afterwards; otherwise the folder without write
/// permission.
func withReadOnlyFolder<Result>(_ relative: String, in scratch: ScratchDirectory,
                                _ body: (String) throws -> Result) rethrows -> Result {
    let folder = scratch.directory(relative).description
    let mounted = getuid() == 0 && mount("tmpfs", folder, "tmpfs", UInt(MS_RDONLY), nil) == 0
    defer { if mounted { umount2(folder, Int32(MNT_DETACH)) } }
    if !mounted { chmod(folder, 0o555) }
    #expect(mounted || getuid() != 0, "as root the read-only tmpfs must mount")
    return try body(folder)
}
