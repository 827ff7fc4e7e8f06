// swift-tools-version:6.1
// libFuzzer targets for the decode shim (JPEG/PNG through ImageDecoder) and the EXIF parser.
// Built only by fuzz/run.sh (`make fuzz`) with -sanitize=fuzzer,address; the library sources are
// the main package's, reached through the symlinks in Sources/ (no copy to drift).
import PackageDescription

let fuzzFlags: [SwiftSetting] = [.unsafeFlags(["-parse-as-library"])]

let package = Package(
    name: "PhotoKioskFuzz",
    dependencies: [
        .package(url: "https://github.com/apple/swift-log", from: "1.6.0"),
    ],
    targets: [
        .systemLibrary(name: "CLibJPEG", pkgConfig: "libjpeg"),
        .systemLibrary(name: "CLibPNG", pkgConfig: "libpng"),
        .systemLibrary(name: "CPixman", pkgConfig: "pixman-1"),
        .systemLibrary(name: "CFreeType", pkgConfig: "freetype2"),
        .target(name: "CJPEG", dependencies: ["CLibJPEG"]),
        .target(name: "CPNG", dependencies: ["CLibPNG"]),
        .target(name: "Graphics", dependencies: ["CPixman", "CFreeType"]),
        .target(name: "Imaging", dependencies: ["Graphics", "CJPEG", "CPNG",
                                                .product(name: "Logging", package: "swift-log")]),
        .target(name: "FuzzDriver"),
        .executableTarget(name: "FuzzDecode", dependencies: ["Imaging", "Graphics", "FuzzDriver"], swiftSettings: fuzzFlags),
        .executableTarget(name: "FuzzExif", dependencies: ["Imaging", "FuzzDriver"], swiftSettings: fuzzFlags),
    ],
    swiftLanguageModes: [.v6]
)
