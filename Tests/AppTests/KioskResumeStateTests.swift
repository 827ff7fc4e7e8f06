import Glibc
import PhotoKioskApp
import TestSupport
import Testing
import SystemAccess
import SystemPackage

/// A fresh directory under /tmp, removed by `remove()`.
struct TemporaryDirectory {
    let path = makeTemporaryDirectory("test")

    func remove() { removeTree(path) }

    func files() -> [String] { directoryNames(path) }

    func write(_ name: String, _ text: String) {
        let f = fopen(path + "/" + name, "wb")!
        fputs(text, f)
        fclose(f)
    }

    func read(_ name: String) -> String? {
        AtomicFile.read(path + "/" + name).map { String(decoding: $0, as: UTF8.self) }
    }
}

@Suite struct KioskResumeStateTests {
    @Test(arguments: [
        ResumeState(),
        ResumeState(screen: .grid(scrollOffset: 1234.5), photo: "/photos/a b.jpg", inSlideshow: true),
        ResumeState(screen: .album(index: 3)),
        ResumeState(screen: .photo(path: "/odd/na\nme\\with\\n.jpg"), photo: "/x\r\ny.png"),
        ResumeState(screen: .photo(path: "/photos/été/日本.jpg")),
    ])
    func roundTripThroughTheFile(state: ResumeState) throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let store = ResumeStore(path: dir.path + "/resume")
        try store.save(state)
        let (loaded, problem) = store.load()
        #expect(problem == nil)
        #expect(loaded == state)
        #expect(dir.files() == ["resume"], "no temporary file is left behind")
    }

    @Test func missingFileGivesDefaultsSilently() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let (state, problem) = ResumeStore(path: dir.path + "/resume").load()
        #expect(state == ResumeState())
        #expect(problem == nil)
    }

    @Test(arguments: [
        "",
        "garbage\n",
        "photokiosk-resume 1\nscreen grid\noffset 12",            // truncated mid-line
        "photokiosk-resume 1\nscreen grid\nslideshow 0\n",        // no offset
        "photokiosk-resume 1\nscreen grid\noffset abc\nslideshow 0\n",
        "photokiosk-resume 1\nscreen album\nindex -1\nslideshow 0\n",
        "photokiosk-resume 1\nscreen moon\nslideshow 0\n",
        "photokiosk-resume 1\nscreen photo\npath bad\\q\nslideshow 1\n",
        "photokiosk-resume 1\nscreen grid\noffset 1\nslideshow 2\n",
        "photokiosk-resume 1\nscreen grid\noffset nan\nslideshow 0\n",
        "photokiosk-resume 1\n\u{0}\u{1}\n",
    ])
    func corruptFileGivesDefaultsAndOneProblem(text: String) throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        dir.write("resume", text)
        let (state, problem) = ResumeStore(path: dir.path + "/resume").load()
        #expect(state == ResumeState())
        let message = try #require(problem)
        #expect(message.contains(dir.path + "/resume"))
        #expect(message.contains("corrupt"))
    }

    @Test func oversizedFileIsReportedNotRead() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        dir.write("resume", "photokiosk-resume 1\n" + String(repeating: "x", count: 100_000) + "\n")
        let (state, problem) = ResumeStore(path: dir.path + "/resume").load()
        #expect(state == ResumeState())
        #expect(problem?.contains("too large") == true)
    }

    @Test func invalidUTF8IsCorrupt() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let f = fopen(dir.path + "/resume", "wb")!
        let bytes: [UInt8] = [0xFF, 0xFE, 0x00, 0x80]
        fwrite(bytes, 1, bytes.count, f)
        fclose(f)
        #expect(ResumeStore(path: dir.path + "/resume").load().problem != nil)
    }

    @Test(arguments: [AtomicFile.Step.createTemporary, .write, .syncFile, .rename])
    func failedWriteLeavesTheOldFileIntact(step: AtomicFile.Step) throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let store = ResumeStore(path: dir.path + "/resume")
        let old = ResumeState(screen: .album(index: 7))
        try store.save(old)
        #expect(throws: AtomicFile.WriteError.self) {
            try store.save(ResumeState(screen: .grid(scrollOffset: 99)), failing: { $0 == step })
        }
        #expect(store.load().state == old)
        #expect(dir.files() == ["resume"], "the temporary file is removed")
    }

    @Test func failedDirectorySyncIsReportedAfterTheNewContentsAreInPlace() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let store = ResumeStore(path: dir.path + "/resume")
        do {
            try store.save(ResumeState(screen: .album(index: 1)), failing: { $0 == .syncDirectory })
            Issue.record("the failed directory sync was not reported")
        } catch {
            #expect(error.step == .syncDirectory)
        }
        #expect(store.load().state == ResumeState(screen: .album(index: 1)))
    }

    @Test func missingStateDirectoriesAreCreated() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let store = ResumeStore(path: dir.path + "/state/photokiosk/resume")
        defer {
            unlink(store.path)
            rmdir(dir.path + "/state/photokiosk")
            rmdir(dir.path + "/state")
        }
        try store.save(ResumeState(screen: .album(index: 2)))
        #expect(store.load().state == ResumeState(screen: .album(index: 2)))
    }

    @Test func realFailureWhenTheDirectoryCannotBeMade() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        // A regular file where the state directory should be: not even root can write below it.
        dir.write("state", "not a directory")
        let store = ResumeStore(path: dir.path + "/state/resume")
        do {
            try store.save(ResumeState())
            Issue.record("wrote below a regular file")
        } catch {
            #expect(error.step == .createTemporary)
            #expect(error.errno == Errno(rawValue: ENOTDIR))
            #expect(error.description.contains(dir.path + "/state/resume"))
        }
    }

    @Test func realRenameFailureKeepsTheOldContents() throws {
        // Renaming a file over a non-empty directory fails (EISDIR or ENOTEMPTY) even as root.
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let target = dir.path + "/resume"
        #expect(mkdir(target, 0o755) == 0)
        let inner = target + "/keep"
        let f = fopen(inner, "wb")!
        fputs("old", f)
        fclose(f)
        defer { unlink(inner); rmdir(target) }
        do {
            try AtomicFile.write(Array("new".utf8), to: target)
            Issue.record("renamed over a non-empty directory")
        } catch {
            #expect(error.step == .rename)
        }
        #expect(AtomicFile.read(inner).map { String(decoding: $0, as: UTF8.self) } == "old")
        #expect(dir.files() == ["resume"])
    }

    @Test func statePathsFollowXDGWithSystemFallbacks() {
        var config = KioskConfig()
        let system = KioskPaths(environment: [:], config: config)
        #expect(system.stateDirectory == "/var/lib/photokiosk")
        #expect(system.cacheDirectory == "/var/cache/photokiosk")
        #expect(system.resumeFile == "/var/lib/photokiosk/resume")
        let user = KioskPaths(environment: ["XDG_STATE_HOME": "/home/p/.local/state", "XDG_CACHE_HOME": "/home/p/.cache"],
                              config: config)
        #expect(user.stateDirectory == "/home/p/.local/state/photokiosk")
        #expect(user.cacheDirectory == "/home/p/.cache/photokiosk")
        // Relative XDG paths are invalid by the spec and ignored.
        #expect(KioskPaths(environment: ["XDG_STATE_HOME": "state"], config: config).stateDirectory == "/var/lib/photokiosk")
        config.cache.directory = "/srv/cache"
        #expect(KioskPaths(environment: ["XDG_CACHE_HOME": "/c"], config: config).cacheDirectory == "/srv/cache")
    }
}
