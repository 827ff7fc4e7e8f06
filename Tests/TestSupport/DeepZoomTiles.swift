import Graphics
import Imaging

/// Writes one level of a Deep Zoom pyramid by hand, as libvips dzsave would: `image` (already at
/// the level's size) cut into the layout's stored tiles, overlap included, as `<column>_<row>.png`
/// in `directory` (which must exist).
public func writeDeepZoomLevel(_ image: Bitmap, level: Int, layout: DeepZoomLayout, into directory: String) throws {
    let count = layout.tileCount(level)
    for c in 0..<count.columns {
        for r in 0..<count.rows {
            let s = layout.storedRect(level: level, column: c, row: r)
            let tile = Bitmap(width: s.width, height: s.height)
            Canvas(target: tile).draw(image, from: Rect(x: s.x, y: s.y, width: s.width, height: s.height),
                                      in: Rect(x: 0, y: 0, width: s.width, height: s.height))
            try FileReader.write(try PNGEncoder.encode(tile), to: directory + "/\(c)_\(r).png")
        }
    }
}

/// Writes the `.dzi` descriptor of a PNG pyramid as libvips dzsave does (Height before Width),
/// for an image and tiles as `layout` says.
public func writeDeepZoomDescriptor(_ layout: DeepZoomLayout, to path: String) throws {
    try FileReader.write(Array("""
    <?xml version="1.0" encoding="UTF-8"?>
    <Image xmlns="http://schemas.microsoft.com/deepzoom/2008" Format="png" Overlap="\(layout.overlap)" TileSize="\(layout.tileSize)">
      <Size Height="\(layout.height)" Width="\(layout.width)"/>
    </Image>
    """.utf8), to: path)
}
