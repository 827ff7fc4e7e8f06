import FuzzDriver
import Graphics
import Imaging

/// One libFuzzer input through the HEIF/AVIF and WebP paths (issue 17), seeded with those
/// formats only so they get fuzzing time of their own: the probe, a grid-sized decode (HEIF
/// thumbnail items, libwebp's scaler), a screen-sized one and a strict full decode.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzFormats(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    var options = DecodeOptions()
    options.maxPixels = 4_000_000  // a mutated header must not make the fuzzer allocate gigabytes
    _ = try? ImageDecoder.probe(bytes: bytes)
    for box in [Size(width: 48, height: 48), Size(width: 320, height: 200)] {
        _ = try? ImageDecoder.decode(bytes: bytes, fitting: box, options: options)
    }
    options.strict = true
    _ = try? ImageDecoder.decode(bytes: bytes, fitting: nil, options: options)
    return 0
}

// SwiftPM links an executable's entry point as FuzzFormats_main; hand it to libFuzzer's driver.
@_cdecl("FuzzFormats_main")
public func fuzzFormatsMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    runFuzzer(argc, argv) { data, size in fuzzFormats(data, size) }
}
