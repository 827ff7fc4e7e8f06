// swift-tools-version:6.1
// libFuzzer targets for the image decoders, the EXIF parser and the remote API's router. Built only by fuzz/run.sh
// (`make fuzz`, and briefly by `make test`) with -sanitize=fuzzer,address. The library code is the
// main package's own Imaging target, reached through its PhotoKioskImaging product: no copy of the
// target graph to drift. Adding a target: a folder in Sources/ and one line below (see run.sh).
import PackageDescription

let fuzzFlags: [SwiftSetting] = [.unsafeFlags(["-parse-as-library"])]
// SwiftPM names a path dependency after its folder (the clone's name), not its manifest's name.
let mainPackage = String(#filePath.split(separator: "/").dropLast(2).last ?? "main")
let imaging = Target.Dependency.product(name: "PhotoKioskImaging", package: mainPackage)
let remote = Target.Dependency.product(name: "PhotoKioskRemote", package: mainPackage)

let package = Package(
    name: "PhotoKioskFuzz",
    dependencies: [
        .package(path: ".."),
        .package(url: "https://github.com/apple/swift-log", from: "1.6.0"),
    ],
    targets: [
        .target(name: "FuzzDriver"),
        .executableTarget(name: "FuzzDecode", dependencies: [imaging, "FuzzDriver"], swiftSettings: fuzzFlags),
        .executableTarget(name: "FuzzExif", dependencies: [imaging, "FuzzDriver"], swiftSettings: fuzzFlags),
        .executableTarget(name: "FuzzFormats", dependencies: [imaging, "FuzzDriver"], swiftSettings: fuzzFlags),
        // The remote API's request parsing and routing, driven without a socket.
        .executableTarget(name: "FuzzRemote", dependencies: [remote, "FuzzDriver", .product(name: "Logging", package: "swift-log")],
                         swiftSettings: fuzzFlags),
        // Fails on purpose (crash, hang, out-of-memory): `run.sh --self-test` proves failures are caught.
        .executableTarget(name: "FuzzSelfTest", dependencies: ["FuzzDriver"], swiftSettings: fuzzFlags),
    ],
    swiftLanguageModes: [.v6]
)
