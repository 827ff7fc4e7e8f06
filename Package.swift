// swift-tools-version:6.1
// PhotoKiosk: a touch photo viewer that owns the screen of a small Linux computer.
// Layers (one-way; ARCHITECTURE.md, "Architecture", has the picture): photokiosk → Remote →
// RemoteServer, PhotoKioskApp → Widgets → UI → Graphics; PhotoKioskApp → Imaging, Platform →
// Graphics; Imaging, Platform, PhotoKioskApp, RemoteServer → SystemAccess (typed system calls on
// swift-system); photokiosk-bench → ChildProcesses → SystemAccess. Basics (locks, seeded random,
// decimal text, civil dates) is below them all and depends on nothing. C libraries are reached only
// through the C* targets. Each target lists every module it imports, even one another dependency
// already brings in.
import PackageDescription

let package = Package(
    name: "PhotoKiosk",
    products: [
        .executable(name: "photokiosk", targets: ["photokiosk"]),
        // For fuzz/ (libFuzzer targets built with sanitizers): the decoders and EXIF as a library,
        // so the fuzz package depends on these targets instead of copying the target graph.
        .library(name: "PhotoKioskImaging", targets: ["Imaging"]),
        // For fuzz/FuzzRemote: the remote API's router with what it needs to run headless.
        .library(name: "PhotoKioskRemote", targets: ["Remote", "RemoteServer", "PhotoKioskApp", "Platform"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        .package(url: "https://github.com/apple/swift-log", from: "1.6.0"),
        .package(url: "https://github.com/apple/swift-system", from: "1.8.1"),
    ],
    targets: [
        // MARK: System libraries (module maps over the Debian -dev packages)
        .systemLibrary(name: "CLibJPEG", path: "Sources/CSystem/CLibJPEG", pkgConfig: "libjpeg",
                       providers: [.apt(["libjpeg-dev"])]),
        .systemLibrary(name: "CLibPNG", path: "Sources/CSystem/CLibPNG", pkgConfig: "libpng",
                       providers: [.apt(["libpng-dev"])]),
        .systemLibrary(name: "CPixman", path: "Sources/CSystem/CPixman", pkgConfig: "pixman-1",
                       providers: [.apt(["libpixman-1-dev"])]),
        .systemLibrary(name: "CFreeType", path: "Sources/CSystem/CFreeType", pkgConfig: "freetype2",
                       providers: [.apt(["libfreetype-dev"])]),
        .systemLibrary(name: "CLibDRM", path: "Sources/CSystem/CLibDRM", pkgConfig: "libdrm",
                       providers: [.apt(["libdrm-dev"])]),
        .systemLibrary(name: "CLibInput", path: "Sources/CSystem/CLibInput", pkgConfig: "libinput",
                       providers: [.apt(["libinput-dev", "libudev-dev"])]),
        // Headers only: libmosquitto, libheif and libmicrohttpd are loaded with dlopen on first use
        // (the CMQTT, CHEIF and CHTTP shims), so they and the TLS and codec libraries they link
        // cost a frame no memory unless MQTT, a HEIF/AVIF photo or the remote page is used.
        .systemLibrary(name: "CMosquitto", path: "Sources/CSystem/CMosquitto",
                       providers: [.apt(["libmosquitto-dev"])]),
        // HEIF/HEIC (HEVC through libde265) and AVIF (AV1 through dav1d/aom), and WebP.
        .systemLibrary(name: "CLibHeif", path: "Sources/CSystem/CLibHeif",
                       providers: [.apt(["libheif-dev"])]),
        .systemLibrary(name: "CLibWebP", path: "Sources/CSystem/CLibWebP", pkgConfig: "libwebpdemux",
                       providers: [.apt(["libwebp-dev"])]),
        .systemLibrary(name: "CLibMicroHTTPD", path: "Sources/CSystem/CLibMicroHTTPD",
                       providers: [.apt(["libmicrohttpd-dev"])]),
        // QR codes for pairing a phone (loaded with dlopen when one is first drawn: CQRENCODE).
        .systemLibrary(name: "CLibQREncode", path: "Sources/CSystem/CLibQREncode",
                       providers: [.apt(["libqrencode-dev"])]),

        // epoll, timerfd, eventfd and signalfd, which Glibc's module leaves out (the event loop's).
        .systemLibrary(name: "CLinux", path: "Sources/CSystem/CLinux"),

        // MARK: C shims: only what Swift cannot do (setjmp error handling, macros, variadic callbacks)
        .target(name: "CJPEG", dependencies: ["CLibJPEG"], path: "Sources/CShims/CJPEG"),
        .target(name: "CPNG", dependencies: ["CLibPNG"], path: "Sources/CShims/CPNG"),
        .target(name: "CDRM", dependencies: ["CLibDRM"], path: "Sources/CShims/CDRM"),
        .target(name: "CInput", dependencies: ["CLibInput"], path: "Sources/CShims/CInput"),
        .target(name: "CSeat", path: "Sources/CShims/CSeat", linkerSettings: [.linkedLibrary("dl")]),
        // dlopen on first use, for the libraries below that only some frames need.
        .target(name: "CLazyLibrary", path: "Sources/CShims/CLazyLibrary", linkerSettings: [.linkedLibrary("dl")]),
        .target(name: "CHTTP", dependencies: ["CLibMicroHTTPD", "CLazyLibrary"], path: "Sources/CShims/CHTTP"),
        .target(name: "CHEIF", dependencies: ["CLibHeif", "CLazyLibrary"], path: "Sources/CShims/CHEIF"),
        .target(name: "CMQTT", dependencies: ["CMosquitto", "CLazyLibrary"], path: "Sources/CShims/CMQTT"),
        // adjtimex's struct timex, which Glibc does not bring into Swift (doctor's time sync check).
        .target(name: "CClockStatus", path: "Sources/CShims/CClockStatus"),
        .target(name: "CGPIO", path: "Sources/CShims/CGPIO"),
        // memfd_create, which Glibc (built without _GNU_SOURCE) does not bring into Swift: a
        // Motion Photo's MP4 played from memory.
        .target(name: "CMemoryFile", path: "Sources/CShims/CMemoryFile"),
        // The kernel's HDMI-CEC API (linux/cec.h): TV standby and wake with the screen.
        .target(name: "CCEC", path: "Sources/CShims/CCEC"),
        .target(name: "CQRENCODE", dependencies: ["CLibQREncode", "CLazyLibrary"], path: "Sources/CShims/CQRENCODE"),
        // GStreamer (video clips' poster frames), loaded with dlopen on the first clip. No module
        // map over libgstreamer1.0-dev: the shim declares the few functions it calls (see CGST.h),
        // so no build root, the arm64 cross sysroot included, needs GStreamer's or GLib's headers.
        .target(name: "CGST", dependencies: ["CLazyLibrary"], path: "Sources/CShims/CGST"),
        // libyuv (a playing clip's YUV frames into the screen's XRGB), loaded with dlopen on the
        // first frame; declared by the shim like GStreamer, so no build root needs libyuv-dev.
        .target(name: "CYUV", dependencies: ["CLazyLibrary"], path: "Sources/CShims/CYUV"),

        // MARK: Swift layers
        // The bottom: what every layer uses and is not graphics nor a system call: pthread locks
        // (Locked, ThreadMutex, ThreadCondition), SeededRandom, decimalText and CivilDate.
        .target(name: "Basics"),
        .target(name: "Graphics", dependencies: ["CPixman", "CFreeType", "CYUV"]),
        // The edge's lower half: typed system calls on swift-system (FileDescriptor, Errno, paths as
        // bytes, SystemError), for every layer that touches files (not Graphics: UI and Widgets
        // see no files). Operating-system services (inotify, mounts, screens, input) are Platform's.
        .target(name: "SystemAccess", dependencies: ["Basics", "CMemoryFile", .product(name: "SystemPackage", package: "swift-system")]),
        // Running another program and waiting for it with its rusage (posix_spawnp, wait4): the
        // benchmarks' only. Apart from SystemAccess because photokiosk must hold no way to start
        // a program (SecurityTests); only photokiosk-bench links it.
        .target(name: "ChildProcesses", dependencies: ["SystemAccess", .product(name: "SystemPackage", package: "swift-system")]),
        .target(name: "Imaging", dependencies: ["Basics", "Graphics", "SystemAccess", "CJPEG", "CPNG",
                                                "CHEIF", "CLibHeif", "CLibWebP", "CQRENCODE", "CLibQREncode", "CGST",
                                                .product(name: "SystemPackage", package: "swift-system"),
                                                .product(name: "Logging", package: "swift-log")]),
        .target(name: "Platform", dependencies: ["Basics", "Graphics", "SystemAccess", "CDRM", "CLinux", "CInput", "CSeat", "CMQTT", "CMosquitto", "CClockStatus", "CGPIO", "CCEC",
                                                 "CPixman", "CLibInput", .product(name: "SystemPackage", package: "swift-system"),
                                                 .product(name: "Logging", package: "swift-log")]),
        .target(name: "UI", dependencies: ["Graphics"]),
        .target(name: "Widgets", dependencies: ["Basics", "UI", "Graphics"]),
        .target(name: "PhotoKioskApp", dependencies: ["Basics", "Widgets", "UI", "Imaging", "Platform", "Graphics", "SystemAccess",
                                                      .product(name: "SystemPackage", package: "swift-system"),
                                                      .product(name: "Logging", package: "swift-log")]),
        // The remote page and API: the HTTP server at the edge (libmicrohttpd on the loop, upload
        // files), and the routes that turn requests into the app's commands (no sockets there).
        .target(name: "RemoteServer", dependencies: ["Platform", "SystemAccess", "CHTTP", "CLibMicroHTTPD",
                                                     .product(name: "SystemPackage", package: "swift-system")]),
        .target(name: "Remote", dependencies: ["Basics", "RemoteServer", "PhotoKioskApp", "Imaging", "Graphics", "Platform", "SystemAccess",
                                               .product(name: "Logging", package: "swift-log")]),
        .executableTarget(name: "photokiosk", dependencies: [
            "Basics", "PhotoKioskApp", "Remote", "Imaging", "Graphics", "Platform",
            "RemoteServer", "Widgets", "UI", "SystemAccess",
            .product(name: "SystemPackage", package: "swift-system"),
            .product(name: "ArgumentParser", package: "swift-argument-parser"),
            .product(name: "Logging", package: "swift-log"),
        ], plugins: ["VersionStamp"]),
        // `photokiosk --version` from debian/changelog and git (scripts/version.sh).
        .plugin(name: "VersionStamp", capability: .buildTool()),

        .executableTarget(name: "photokiosk-bench", dependencies: [
            "Basics", "PhotoKioskApp", "Widgets", "UI", "Imaging", "Platform", "Graphics", "SystemAccess", "ChildProcesses",
            .product(name: "SystemPackage", package: "swift-system"),
            .product(name: "Logging", package: "swift-log"),
        ], path: "Sources/Benchmarks"),

        // MARK: Tests (none of them needs ../shared or a screen)
        // Helpers several test targets share (scratch folders, file I/O, log capture, seeded random,
        // a scripted finger on a UI window).
        // CLibHeif: HEIFWriter makes the irot fixtures heif-enc 1.15 cannot (linked directly: the
        // encoder is not among the functions CHEIF loads).
        .target(name: "TestSupport", dependencies: ["Basics", "Imaging", "Graphics", "Platform", "SystemAccess", "UI", "CLibHeif", "CJPEG",
                                                    .product(name: "SystemPackage", package: "swift-system"),
                                                    .product(name: "Logging", package: "swift-log")],
                path: "Tests/TestSupport", linkerSettings: [.linkedLibrary("heif")]),
        .testTarget(name: "BasicsTests", dependencies: ["Basics"]),
        .testTarget(name: "GraphicsTests", dependencies: ["Basics", "Graphics"]),
        .testTarget(name: "ImagingTests", dependencies: ["Basics", "Imaging", "Graphics", "TestSupport"]),
        .testTarget(name: "PlatformTests", dependencies: ["Basics", "Platform", "Graphics", "CDRM", "SystemAccess", "CLazyLibrary", "TestSupport",
                                                     .product(name: "SystemPackage", package: "swift-system"),
                                                     .product(name: "Logging", package: "swift-log")]),
        .testTarget(name: "SystemAccessTests", dependencies: ["Basics", "SystemAccess", "ChildProcesses", "TestSupport", .product(name: "SystemPackage", package: "swift-system")]),
        .testTarget(name: "UITests", dependencies: ["UI", "Graphics", "TestSupport"]),
        .testTarget(name: "WidgetsTests", dependencies: ["Basics", "Widgets", "UI", "Graphics", "TestSupport"]),
        .testTarget(name: "AppTests", dependencies: ["Basics", "PhotoKioskApp", "Widgets", "UI", "Imaging", "Platform", "Graphics", "TestSupport",
                                                     "SystemAccess", .product(name: "SystemPackage", package: "swift-system"),
                                                     .product(name: "Logging", package: "swift-log")]),
        .testTarget(name: "RemoteTests", dependencies: ["Basics", "Remote", "RemoteServer", "PhotoKioskApp", "Imaging", "Platform", "Graphics", "TestSupport", "SystemAccess",
                                                        .product(name: "Logging", package: "swift-log")]),
        .testTarget(name: "RobustnessTests", dependencies: ["Basics", "PhotoKioskApp", "Widgets", "UI", "Imaging", "Platform", "Graphics", "TestSupport",
                                                            "SystemAccess", .product(name: "SystemPackage", package: "swift-system"),
                                                            .product(name: "Logging", package: "swift-log")]),
    ],
    swiftLanguageModes: [.v6]
)
