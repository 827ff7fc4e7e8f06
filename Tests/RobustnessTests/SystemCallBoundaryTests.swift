import Testing

/// Issue 23: system calls go through typed wrappers at the edge. Only Platform, SystemAccess
/// (the edge's lower half, on swift-system), ChildProcesses (the benchmarks' process runner) and
/// the C shims open files with open(2) flags, list folders with readdir, use inotify or ioctl,
/// read errno or read the clocks; the layers above, the CLI and the benchmarks get
/// FileDescriptor, Errno, SystemError and SystemClock.
@Suite struct SystemCallBoundaryTests {
    static let aboveTheEdge = ["Graphics", "Imaging", "UI", "Widgets", "PhotoKioskApp", "Remote", "RemoteServer", "photokiosk", "Benchmarks"]

    /// errno as the C global (not `.errno` of an error, nor an `errno:` or `errno code:` label), EINTR loops,
    /// inotify, readdir, ioctl, stdio opens and reads, stat and readlink, open(2) flags, the raw
    /// descriptor calls, and the clocks (SystemClock and Platform's LocalWallClock read them; the
    /// UI gets an injected UIClock).
    static var rawCall: some RegexComponent { #/(^|[^.\w])errno\b(?!\s*:|\s+\w+\s*:)|\bEINTR\b|\binotify_\w+|(^|[^.\w])(readdir|opendir|fdopendir|ioctl|fopen|fdopen|fread|stat|lstat|fstat|readlink)\(|\bO_(RDONLY|WRONLY|RDWR|CREAT)\b|Glibc\.(open|read|write|close)\(|(^|[^.\w])(clock_gettime|localtime_r|gettimeofday)\(|(^|[^.\w])time\(nil\)/# }

    static func offendingLines(in text: String) -> [String] {
        text.split(separator: "\n").filter { line in
            let code = line.split(separator: "//", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
            return code.contains(rawCall)
        }.map(String.init)
    }

    /// Lines above the edge that are allowed, by file name (Imaging's folders may move), with
    /// the reason. Empty since issue 32: libjpeg's stdio stream comes from SystemAccess's
    /// `StdioReadStream`, which hands its `FILE*` to the decoder through `cStreamForDecoder`.
    static let allowed: [(file: String, call: String)] = []

    static func isAllowed(_ offender: String, by allowed: [(file: String, call: String)] = allowed) -> Bool {
        allowed.contains { offender.contains("/" + $0.file + ":") && offender.contains($0.call) }
    }

    @Test func noLayerAboveTheEdgeCallsTheKernelDirectly() {
        let (files, offenders) = SecurityTests.scan(Self.aboveTheEdge, for: Self.offendingLines(in:))
        #expect(files > 100, "found the sources at \(SecurityTests.sources)")
        #expect(offenders.filter { !Self.isAllowed($0) }.isEmpty, "\(offenders.filter { !Self.isAllowed($0) })")
        // Each allowance is still needed: one that no longer matches a line is removed.
        for entry in Self.allowed {
            #expect(offenders.contains { $0.contains("/" + entry.file + ":") && $0.contains(entry.call) },
                    "\(entry.file) no longer calls \(entry.call): remove it from `allowed`")
        }
    }

    @Test func theCheckFindsWhatItLooksFor() {
        #expect(!Self.offendingLines(in: "if n < 0 && errno == EINTR { continue }").isEmpty)
        #expect(!Self.offendingLines(in: "let fd = open(path, O_RDONLY | O_CLOEXEC)").isEmpty)
        #expect(!Self.offendingLines(in: "let wd = inotify_add_watch(fd, path, mask)").isEmpty)
        #expect(!Self.offendingLines(in: "while let entry = readdir(dir) {").isEmpty)
        #expect(!Self.offendingLines(in: "_ = Glibc.write(fd, buffer, count)").isEmpty)
        #expect(Self.offendingLines(in: "throw UploadFileError(step: \"write\", errno: error.errno)").isEmpty)
        #expect(Self.offendingLines(in: "// a loop that retried EINTR by hand").isEmpty)
        #expect(Self.offendingLines(in: "public init(step: String, errno code: Errno) {").isEmpty)
        #expect(!Self.offendingLines(in: "let code = errno").isEmpty)
        #expect(!Self.offendingLines(in: "clock_gettime(CLOCK_REALTIME, &now)").isEmpty)
        #expect(!Self.offendingLines(in: "let now = time(nil)").isEmpty)
        #expect(!Self.offendingLines(in: "localtime_r(&now, &parts)").isEmpty)
        #expect(Self.offendingLines(in: "let now = SystemClock.realtimeSeconds()").isEmpty)
        #expect(!Self.offendingLines(in: "guard let file = fdopen(fd.rawValue, \"rb\") else {").isEmpty)
        #expect(!Self.offendingLines(in: "let got = fread(buffer, 1, count, file)").isEmpty)
        #expect(!Self.offendingLines(in: "return stat(path, &st) == 0").isEmpty)
        #expect(!Self.offendingLines(in: "var st = stat()").isEmpty)
        #expect(!Self.offendingLines(in: "let n = readlink(\"/proc/self/exe\", &buffer, size)").isEmpty)
        #expect(Self.offendingLines(in: "let info = try descriptor.stat()").isEmpty)
        let sample = [(file: "PhotoFileStream.swift", call: "fdopen(")]
        #expect(Self.isAllowed("/src/Sources/Imaging/PhotoFileStream.swift: let file = fdopen(fd, \"rb\")", by: sample))
        #expect(!Self.isAllowed("/src/Sources/Imaging/PhotoFileStream.swift: var st = stat()", by: sample))
        #expect(!Self.isAllowed("/src/Sources/Imaging/Other.swift: let file = fdopen(fd, \"rb\")", by: sample))
        #expect(!Self.isAllowed("/src/Sources/Imaging/PhotoFileStream.swift: let file = fdopen(fd, \"rb\")"))
    }
}
