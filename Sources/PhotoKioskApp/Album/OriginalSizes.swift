import Graphics

/// Photos' full (oriented) sizes, as their decodes read them from the headers on the loader's
/// workers (`LoadedImage.originalSize`). The album needs them to zoom to one photo pixel per
/// screen pixel while it still shows a smaller bitmap, and to tell a photo it shows in tiles —
/// without reading a file on the loop thread. The pipeline notes them around the file decoder
/// (every size class: the grid's thumbnails, the album's and the slideshow's screen images), so
/// the album knows the size even for a photo whose bitmaps it finds in the cache; a thumbnail
/// from the disk cache brings none.
public typealias OriginalSizes = LoadNotes<Size>
