import Graphics
import Imaging
import Platform

/// What the overlay shows about one photo, ready to draw.
struct OverlayPhotoInfo: Equatable, Sendable {
    var dateTaken: String?
    var caption: String?
    var place: String?

    /// Reads `path`'s details (and looks up its place when `places` is given): file reading, so
    /// off the loop thread.
    static func read(_ path: RawPath, places: PlaceLookup?, format: LocaleTimeFormat) -> OverlayPhotoInfo {
        let details = PhotoDetails.read(path: path)
        let taken = ExifData(dateTimeOriginal: details.dateTimeOriginal).dateTimeOriginalSeconds
            .map { format.date(LocalDateTime(localSeconds: $0).calendarFields) }
        return OverlayPhotoInfo(dateTaken: taken, caption: details.caption,
                                place: details.position.flatMap { places?.place(at: $0)?.description })
    }
}
