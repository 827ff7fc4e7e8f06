import FuzzDriver
import Imaging

/// One libFuzzer input as the TIFF structure of an EXIF block (without "Exif\0\0").
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzExif(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = UnsafeBufferPointer(start: data, count: size)
    if let exif = ExifData.parse(bytes), let date = exif.dateTimeOriginal {
        precondition(date.utf8.count <= 1 << 16)
    }
    return 0
}

// SwiftPM links an executable's entry point as FuzzExif_main; hand it to libFuzzer's driver.
@_cdecl("FuzzExif_main")
public func fuzzExifMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    runFuzzer(argc, argv) { data, size in fuzzExif(data, size) }
}
