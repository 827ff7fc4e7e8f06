/// The `.dzi` XML file of a Deep Zoom pyramid:
///
///     <?xml version="1.0" encoding="UTF-8"?>
///     <Image xmlns="http://schemas.microsoft.com/deepzoom/2008" TileSize="254" Overlap="1" Format="jpeg">
///       <Size Width="5640" Height="3172"/>
///     </Image>
///
/// Tiles live next to it in `NAME_files/LEVEL/COLUMN_ROW.FORMAT`.
public struct DeepZoomDescriptor: Hashable, Sendable {
    public var layout: DeepZoomLayout
    /// The tile files' extension: "jpeg", "jpg" or "png".
    public var format: String

    public var xml: String {
        """
        <?xml version="1.0" encoding="UTF-8"?>
        <Image xmlns="http://schemas.microsoft.com/deepzoom/2008" TileSize="\(layout.tileSize)" \
        Overlap="\(layout.overlap)" Format="\(format)">
          <Size Width="\(layout.width)" Height="\(layout.height)"/>
        </Image>

        """
    }

    /// Reads the attributes the format needs; anything else in the file is ignored.
    public static func parse(_ text: String) throws(ImagingError) -> DeepZoomDescriptor {
        guard text.contains("<Image") else { throw ImagingError(.corrupt, "not a Deep Zoom descriptor (no <Image> element)") }
        let bytes = Array(text.utf8)
        func attribute(_ name: String) -> String? {
            // The attribute's name must stand alone: " Width=" is not part of "TileWidth=".
            let key = Array((name + "=").utf8)
            var i = 0
            while i + key.count < bytes.count {
                defer { i += 1 }
                guard bytes[i..<(i + key.count)].elementsEqual(key) else { continue }
                guard i == 0 || [0x20, 0x0A, 0x09, 0x0D].contains(bytes[i - 1]) else { continue }
                let quote = bytes[i + key.count]
                guard quote == 0x22 || quote == 0x27 else { continue }
                let valueStart = i + key.count + 1
                guard let end = bytes[valueStart...].firstIndex(of: quote) else { return nil }
                return String(decoding: bytes[valueStart..<end], as: UTF8.self)
            }
            return nil
        }
        func number(_ name: String) throws(ImagingError) -> Int {
            guard let text = attribute(name), let value = Int(text.filter { !$0.isWhitespace }) else {
                throw ImagingError(.corrupt, "Deep Zoom descriptor lacks a numeric \(name)")
            }
            return value
        }
        let tileSize = try number("TileSize"), overlap = (try? number("Overlap")) ?? 0
        let width = try number("Width"), height = try number("Height")
        guard tileSize > 0, overlap >= 0, overlap < tileSize, width > 0, height > 0 else {
            throw ImagingError(.corrupt, "Deep Zoom descriptor has impossible sizes (\(width)x\(height), tiles \(tileSize) + \(overlap))")
        }
        let format = (attribute("Format") ?? "jpeg").lowercased()
        return DeepZoomDescriptor(layout: DeepZoomLayout(width: width, height: height, tileSize: tileSize, overlap: overlap),
                                  format: format)
    }
}
