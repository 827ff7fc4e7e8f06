/// Clips' lengths, as their loads brought them back on the loader's workers (a decode's
/// `LoadedImage.clipDuration`, or the thumbnail disk cache's copy of it). The grid's badges read
/// them on the loop thread, also for a clip whose thumbnail the memory cache already holds. The
/// pipeline notes them around the whole decoder chain, the disk cache included, which keeps a
/// clip's length beside its poster.
public typealias ClipDurations = LoadNotes<Duration>
