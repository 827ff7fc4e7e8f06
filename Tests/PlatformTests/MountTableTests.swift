import TestSupport
import Glibc
import Testing
import Platform

@Suite("Mount table")
struct MountTableTests {
    @Test func mountInfoLinesGiveMountPointAndType() {
        let table = MountTable(mountInfo: Array("""
        22 1 8:1 / / rw,relatime shared:1 - ext4 /dev/sda1 rw
        40 22 0:40 / /mnt/nas rw,relatime shared:20 master:3 - nfs4 server:/photos rw
        41 22 0:41 / /mnt/my\\040photos\\134x rw - fuse.sshfs host: rw
        not a mountinfo line
        42 22 0:42 / /mnt/short rw
        """.utf8))
        #expect(table.mounts == [
            Mount(mountPoint: Array("/".utf8), fileSystemType: "ext4"),
            Mount(mountPoint: Array("/mnt/nas".utf8), fileSystemType: "nfs4"),
            Mount(mountPoint: Array("/mnt/my photos\\x".utf8), fileSystemType: "fuse.sshfs"),
        ])
    }

    @Test func theSystemTableHoldsTheRootAndAMissingOneIsNil() throws {
        let mounts = try #require(SystemMountTable().currentMounts())
        #expect(mounts.mounts.contains { $0.mountPoint == Array("/".utf8) })
        let missing = SystemMountTable(path: "/nonexistent/mountinfo")
        #expect(missing.currentMounts() == nil)
        #expect(try missing.watchChanges(on: try EventLoop(signals: [])) {} == false)
    }

    @Test(.enabled(if: getuid() == 0, "mounting needs root"))
    func aMountIsReportedOnTheLoop() throws {
        let folder = makeTemporaryDirectory("mount")
        defer { rmdir(folder) }
        let loop = try EventLoop(signals: [])
        let table = SystemMountTable()
        var changes = 0
        #expect(try table.watchChanges(on: loop) { changes += 1 })
        try loop.runOnce(timeout: 0)
        changes = 0
        #expect(mount("tmpfs", folder, "tmpfs", 0, nil) == 0, "mount: errno \(errno)")
        defer { umount2(folder, Int32(MNT_DETACH)) }
        for _ in 0..<100 where changes == 0 { try loop.runOnce(timeout: 0.1) }
        #expect(changes >= 1, "other mounts on the machine may add changes, never remove this one")
        #expect(table.currentMounts()?.mounts.contains { $0.mountPoint == Array(folder.utf8) && $0.fileSystemType == "tmpfs" } == true)
    }
}
