import FuzzDriver
import Imaging

/// One libFuzzer input as the TIFF structure of an EXIF block (without "Exif\0\0"), and the same
/// bytes as the metadata segments after a JPEG's SOI (EXIF, XMP and Photoshop/IPTC APPn: the
/// overlay's caption and position).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzExif(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = UnsafeBufferPointer(start: data, count: size)
    if let exif = ExifData.parse(bytes) {
        if let date = exif.dateTimeOriginal { precondition(date.utf8.count <= 1 << 16) }
        if let position = exif.position { precondition(abs(position.latitude) <= 90 && abs(position.longitude) <= 180) }
    }
    let details = PhotoDetails.parse([0xFF, 0xD8] + Array(bytes))
    if let caption = details.caption { precondition(!caption.isEmpty && caption.utf8.count <= 4 * size + 8) }
    return 0
}

// SwiftPM links an executable's entry point as FuzzExif_main; hand it to libFuzzer's driver.
@_cdecl("FuzzExif_main")
public func fuzzExifMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    runFuzzer(argc, argv) { data, size in fuzzExif(data, size) }
}
