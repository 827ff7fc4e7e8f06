import Testing
import Glibc
import Graphics
import Imaging
import Platform
import SystemAccess
import SystemPackage
import TestSupport
import UI
@testable import PhotoKioskApp
import Widgets

/// Issue 30 item 2: never a blank screen. A missing, empty, unreadable or photo-less folder
/// gives a screen that says what is wrong and what to do, and photos that arrive replace it.
@Suite struct NoPhotosScreenTests {
    /// The kernel's listing, except that the given paths (and everything under them) cannot be
    /// read: what a folder with mode 700 of another user, or a ProtectHome'd /home, looks like
    /// to a process that is not root (the tests may run as root, which reads everything).
    struct DenyingListing: FolderListing {
        var denied: [String]
        func isDenied(_ path: [UInt8]) -> Bool {
            let text = String(decoding: path, as: UTF8.self)
            return denied.contains { text == $0 || text.hasPrefix($0 + "/") }
        }
        func openFolder(_ path: [UInt8]) throws(SystemError) -> any OpenFolder {
            if isDenied(path) { throw SystemError("open", errno: .permissionDenied) }
            return try SystemFolderListing().openFolder(path)
        }
        func status(of path: [UInt8], followingLinks: Bool) throws(SystemError) -> Stat {
            let text = String(decoding: path, as: UTF8.self)
            // A folder under a denied one cannot even be looked at (no search permission).
            if denied.contains(where: { text.hasPrefix($0 + "/") }) { throw SystemError("stat", errno: .permissionDenied) }
            return try SystemFolderListing().status(of: path, followingLinks: followingLinks)
        }
    }

    static let background = NoticeScreenView.background

    func makeApp(folder: String, size: Size = Size(width: 800, height: 480),
                 examine: ((String) -> EmptyLibraryDiagnosis)? = nil) throws -> (KioskApp, HeadlessDisplay) {
        let display = HeadlessDisplay(width: Int(size.width), height: Int(size.height))
        let app = KioskApp(config: KioskConfig(), folders: [folder], display: display, loop: try EventLoop(signals: []),
                           thumbnailCacheDirectory: nil, logger: .init(label: "test"))
        if let examine { app.noPhotosScreen.examine = { _ in examine(folder) } }
        try app.start()
        return (app, display)
    }

    /// Pixels in `rect` that are not the screen's background: text drawn there.
    func inkedPixels(_ display: HeadlessDisplay, in rect: PixelRect) -> Int {
        var count = 0
        for y in rect.y..<(rect.y + rect.height) {
            for x in rect.x..<(rect.x + rect.width) where display.frameBuffer.color(x: x, y: y) != Self.background {
                count += 1
            }
        }
        return count
    }

    func jpeg(_ color: Color) throws -> [UInt8] {
        let bitmap = Bitmap(width: 320, height: 200)
        Canvas(target: bitmap).clear(color)
        return try JPEGEncoder.encode(bitmap, options: .init(quality: 95))
    }

    @Test("Each of the four cases draws its own words, not a blank screen")
    func fourCasesDrawDifferentScreens() throws {
        let scratch = ScratchDirectory()
        let missing = scratch["not-there"].description
        let empty = scratch.directory("empty").description
        let unreadable = scratch.directory("locked").description
        scratch.file("locked/a.jpg", bytes: try jpeg(.red))
        let others = scratch.directory("others").description
        scratch.file("others/notes.txt", bytes: Array("hello".utf8))
        scratch.file("others/clip.avi", bytes: Array("not a photo".utf8))   // .mov is a library item now

        var screens: [Bitmap] = []
        var problems: [String] = []
        for (folder, deny) in [(missing, false), (empty, false), (unreadable, true), (others, false)] {
            // The scan of the locked folder is told nothing; the scanner is real, so a test run as
            // root sees it as empty: the diagnosis is what the screen is about.
            let scanned = deny ? scratch.directory("scan-of-locked").description : folder
            let (app, display) = try makeApp(folder: scanned, examine: { _ in
                EmptyLibraryDiagnosis.examine([folder], listing: DenyingListing(denied: deny ? [folder] : []), userName: "photokiosk")
            })
            #expect(try app.runUntilSettled(timeout: 20))
            #expect(app.photos.count == 0)
            #expect(app.isShowingNoPhotosScreen, "\(folder)")
            let view = try #require(app.noPhotosView)
            #expect(view.title == "No photos yet")
            #expect(view.fitsAllText)
            // More than a few glyphs' worth of words.
            #expect(inkedPixels(display, in: PixelRect(x: 0, y: 0, width: 800, height: 480)) > 3000)
            problems.append(app.emptyLibraryDiagnosis?.problems.first ?? "")
            screens.append(display.frameBuffer.copy())
        }
        #expect(problems[0] == "\(missing) does not exist.")
        #expect(problems[1] == "\(empty) is empty.")
        #expect(problems[2] == "\(unreadable) can't be read by the photokiosk service: its permissions keep user photokiosk out.")
        #expect(problems[3].hasPrefix("\(others) has 2 files ("))
        #expect(problems[3].hasSuffix(") but no photo the frame can show."))
        for i in 0..<screens.count {
            for j in (i + 1)..<screens.count {
                #expect(!sameBytes(screens[i], screens[j]), "screens \(i) and \(j) are identical")
            }
        }
    }

    func sameBytes(_ a: Bitmap, _ b: Bitmap) -> Bool {
        guard a.width == b.width, a.height == b.height else { return false }
        for y in 0..<a.height where memcmp(a.row(y), b.row(y), a.width * 4) != 0 { return false }
        return true
    }

    @Test("A photo copied into the empty folder replaces the screen")
    func photoArrivingReplacesTheScreen() throws {
        let scratch = ScratchDirectory()
        let folder = scratch.directory("photos").description
        let (app, display) = try makeApp(folder: folder)
        #expect(try app.runUntilSettled(timeout: 20))
        #expect(app.isShowingNoPhotosScreen)
        try FileReader.write(try jpeg(.green), to: folder + "/a.jpg")
        #expect(try app.host.run(until: { app.photos.count == 1 && app.isContentLoaded }, timeout: 20))
        #expect(!app.isShowingNoPhotosScreen)
        let centre = app.grid.convert(app.grid.layout.frame(of: 0).center, to: nil)
        let shown = display.frameBuffer.color(x: Int(centre.x), y: Int(centre.y))
        #expect(shown.green > 200 && shown.red < 40, "\(shown)")
        // All gone again: the screen comes back.
        try FileSystemCalls.unlink(FilePath(folder + "/a.jpg"))
        #expect(try app.host.run(until: { app.photos.count == 0 && app.isShowingNoPhotosScreen }, timeout: 20))
    }

    @Test("A folder that does not exist yet is picked up when it appears")
    func missingFolderAppearing() throws {
        let scratch = ScratchDirectory()
        let folder = scratch["later/photos"].description
        let (app, _) = try makeApp(folder: folder)
        #expect(try app.runUntilSettled(timeout: 20))
        #expect(app.emptyLibraryDiagnosis?.folders.first?.state == .missing)
        scratch.file("later/photos/b.jpg", bytes: try jpeg(.blue))
        // The missing folder is looked for every few seconds.
        #expect(try app.host.run(until: { app.photos.count == 1 }, timeout: 20))
        #expect(try app.runUntilSettled(timeout: 20))
        #expect(!app.isShowingNoPhotosScreen)
    }

    @Test("Files that are not photos, added while the screen shows, change what it says")
    func otherFilesAreNoticed() throws {
        let scratch = ScratchDirectory()
        let folder = scratch.directory("photos").description
        let (app, _) = try makeApp(folder: folder)
        app.noPhotosScreen.recheckInterval = 0.2
        #expect(try app.runUntilSettled(timeout: 20))
        #expect(app.emptyLibraryDiagnosis?.folders.first?.state == .empty)
        scratch.file("photos/readme.txt", bytes: Array("x".utf8))
        #expect(try app.host.run(until: {
            app.emptyLibraryDiagnosis?.folders.first?.state == .onlyOtherFiles(count: 1, examples: ["readme.txt"])
        }, timeout: 10))
    }

    @Test("With the remote page on, the screen shows the address and a QR code a phone can scan")
    func pairingCodeDecodes() throws {
        let scratch = ScratchDirectory()
        let folder = scratch.directory("photos").description
        let url = "http://192.168.1.20:8080/"
        for size in [Size(width: 800, height: 480), Size(width: 480, height: 800), Size(width: 320, height: 240)] {
            let (app, display) = try makeApp(folder: folder, size: size)
            app.pairingOffer = PairingOffer(url: url, address: url)
            #expect(try app.runUntilSettled(timeout: 20))
            let view = try #require(app.noPhotosView)
            let frame = try #require(view.codeFrame)
            #expect(frame.minX >= 0 && frame.maxX <= size.width && frame.minY >= 0 && frame.maxY <= size.height)
            #expect(view.codeCaption.contains("or open \(url)"))
            let png = scratch["screen-\(Int(size.width)).png"].description
            try PNGEncoder.write(display.frameBuffer, to: png)
            let decoded = try ExternalTool.output("zbarimg", ["--quiet", "--raw", png])
            #expect(decoded.split(separator: "\n").map(String.init) == [url], "at \(size)")
        }
    }
}

/// The words, folder state by folder state (no screen needed).
@Suite struct EmptyLibraryDiagnosisTests {
    @Test("A home folder hidden by the unit's ProtectHome is named as such, with where to put photos instead")
    func protectHome() {
        let listing = NoPhotosScreenTests.DenyingListing(denied: ["/home"])
        let diagnosis = EmptyLibraryDiagnosis.examine(["/home/pi/Pictures"], listing: listing, userName: "photokiosk")
        #expect(diagnosis.folders[0].state == .unreadable(hiddenByProtectHome: true))
        #expect(diagnosis.problems == ["/home/pi/Pictures can't be read by the photokiosk service (the unit's ProtectHome hides /home)."])
        #expect(diagnosis.advice.first == "Put photos (JPEG, PNG, HEIC, AVIF or WebP) in /var/lib/photokiosk/photos, or set [library] folders in /etc/photokiosk/config.toml to a folder outside /home.")
    }

    @Test("A stick that is not mounted: the mount point is missing or an empty folder on the parent's device")
    func notMounted() {
        let missing = EmptyLibraryDiagnosis.examine(["/media/photokiosk-test-no-such-stick"], userName: "pi")
        #expect(missing.folders[0].state == .notMounted)
        #expect(missing.problems[0] == "Nothing is mounted at /media/photokiosk-test-no-such-stick: is the USB stick or share connected?")
        #expect(EmptyLibraryDiagnosis.examine(["/srv/photokiosk-test-no-such-folder"], userName: "pi").folders[0].state == .missing)
    }

    @Test("A file where a folder should be, and photos that are there but not shown")
    func fileAndPhotos() throws {
        let scratch = ScratchDirectory()
        let file = scratch.file("a.txt", bytes: [1]).description
        scratch.file("p/one.jpg", bytes: [1])
        scratch.file("p/sub/two.heic", bytes: [1])
        let diagnosis = EmptyLibraryDiagnosis.examine([file, scratch["p"].description], userName: "pi")
        #expect(diagnosis.folders.map(\.state) == [.notAFolder, .hasPhotos(count: 2)])
        #expect(diagnosis.problems[0] == "\(file) is a file, not a folder.")
    }
}
