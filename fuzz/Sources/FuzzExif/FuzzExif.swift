import FuzzDriver
import Imaging

/// One libFuzzer input as the TIFF structure of an EXIF block (without "Exif\0\0"; with Apple's
/// maker note, the Live Photo content identifier), the same bytes as the metadata segments after a
/// JPEG's SOI (EXIF, XMP and Photoshop/IPTC APPn: the overlay's caption and position; a Motion
/// Photo's XMP and the video it points to), and as a QuickTime file (a Live Photo MOV's metadata).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzExif(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = UnsafeBufferPointer(start: data, count: size)
    if let exif = ExifData.parse(bytes) {
        if let date = exif.dateTimeOriginal { precondition(date.utf8.count <= 1 << 16) }
        if let position = exif.position { precondition(abs(position.latitude) <= 90 && abs(position.longitude) <= 180) }
        if let identifier = exif.contentIdentifier { precondition(identifier.utf8.count <= 64) }
    }
    let jpeg = [0xFF, 0xD8] + Array(bytes)
    let details = PhotoDetails.parse(jpeg)
    if let caption = details.caption { precondition(!caption.isEmpty && caption.utf8.count <= 4 * size + 8) }
    let read = { (offset: Int, count: Int) -> [UInt8]? in
        precondition(offset >= 0 && count >= 0, "asked for \(count) bytes at \(offset)")
        guard offset < jpeg.count else { return nil }
        return Array(jpeg[offset..<min(jpeg.count, offset + count)])
    }
    if let video = MotionPhoto.embeddedVideo(head: jpeg, fileSize: jpeg.count, read: read) {
        precondition(video.lowerBound > 0 && video.upperBound == jpeg.count, "\(video) in \(jpeg.count) bytes")
    }
    if let identifier = QuickTimeMetadata.contentIdentifier(Array(bytes)) { precondition(identifier.utf8.count <= 64) }
    return 0
}

// SwiftPM links an executable's entry point as FuzzExif_main; hand it to libFuzzer's driver.
@_cdecl("FuzzExif_main")
public func fuzzExifMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    runFuzzer(argc, argv) { data, size in fuzzExif(data, size) }
}
