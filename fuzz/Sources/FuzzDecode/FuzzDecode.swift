import FuzzDriver
import Graphics
import Imaging

/// One libFuzzer input: probe, decode at a thumbnail box and in full, and the embedded EXIF
/// thumbnail, as the app's loader does. Any outcome but a crash, a hang or a sanitizer report is fine.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzDecode(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    var options = DecodeOptions()
    options.maxPixels = 4_000_000  // a mutated header must not make the fuzzer allocate gigabytes
    options.maxScans = 200
    if let info = try? ImageDecoder.probe(bytes: bytes) {
        _ = try? ImageDecoder.decodeEmbeddedThumbnail(of: info, fitting: Size(width: 64, height: 64), options: options)
    }
    _ = try? ImageDecoder.decode(bytes: bytes, fitting: Size(width: 96, height: 96), options: options)
    options.strict = true
    _ = try? ImageDecoder.decode(bytes: bytes, fitting: nil, options: options)
    return 0
}

// SwiftPM links an executable's entry point as FuzzDecode_main; hand it to libFuzzer's driver.
@_cdecl("FuzzDecode_main")
public func fuzzDecodeMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    runFuzzer(argc, argv) { data, size in fuzzDecode(data, size) }
}
