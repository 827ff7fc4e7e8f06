import Glibc
import Imaging
import Platform

/// A named place: the town, its first-level division (state, region; may be empty) and country.
public struct PlaceName: Hashable, Sendable, CustomStringConvertible {
    public var town: String
    public var region: String
    public var country: String

    /// "Bled, Radovljica, Slovenia"; the region is left out when empty or the town's own name
    /// ("Vienna, Austria").
    public var description: String {
        var parts = [town]
        if !region.isEmpty, region != town { parts.append(region) }
        if !country.isEmpty { parts.append(country) }
        return parts.joined(separator: ", ")
    }
}

/// The offline reverse-geocoding table (assets/places/places.bin, made by
/// scripts/make-places.py, whose header documents the format): GeoNames' towns of more than
/// 1,000 people, sorted into 1-degree cells. The file is mapped, not read: a lookup touches the
/// index entries and coordinates of the cells within reach of the position and the strings of
/// the place found, a few pages, so the table costs next to no memory.
public final class PlaceTable: @unchecked Sendable {
    static let magic = Array("PKPLACE1".utf8)
    static let scale = 100_000.0
    static let kilometresPerDegree = 111.2

    private let file: MappedFile
    public let placeCount: Int
    /// The file's size.
    public var byteCount: Int { file.count }
    private let columns: Int, rows: Int
    private let regionCount: Int, countryCount: Int
    private let cellStart: Int, latitudes: Int, longitudes: Int, names: Int
    private let regionNames: Int, countryNames: Int, regions: Int, countries: Int, strings: Int, stringBytes: Int

    public struct FormatError: Error, CustomStringConvertible {
        public var description: String
    }

    /// Maps the table at `path`; throws when it cannot be mapped or is not a whole table.
    public init(path: String) throws {
        // A lookup reads a few scattered pages: reading ahead would map in hundreds of kB.
        file = try MappedFile(path: path, randomAccess: true)
        let header = file.withBytes { raw -> [Int]? in
            guard raw.count >= 32, raw.prefix(8).elementsEqual(Self.magic) else { return nil }
            return (0..<6).map { Int(raw.loadUnaligned(fromByteOffset: 8 + 4 * $0, as: UInt32.self).littleEndian) }
        }
        guard let header else { throw FormatError(description: "\(path) is not a place table (made by scripts/make-places.py)") }
        (placeCount, columns, rows, regionCount, countryCount, stringBytes) = (header[0], header[1], header[2], header[3], header[4], header[5])
        cellStart = 32
        latitudes = cellStart + 4 * (rows * columns + 1)
        longitudes = latitudes + 4 * placeCount
        names = longitudes + 4 * placeCount
        regionNames = names + 4 * placeCount
        countryNames = regionNames + 4 * regionCount
        regions = countryNames + 4 * countryCount
        countries = regions + 2 * placeCount
        let unpadded = countries + placeCount
        strings = unpadded + (4 - unpadded % 4) % 4
        guard columns == 360, rows == 180, countryCount <= 256, strings + stringBytes == file.count else {
            throw FormatError(description: "\(path): the place table is cut short or damaged (\(file.count) bytes)")
        }
    }

    private func u32(_ raw: UnsafeRawBufferPointer, _ offset: Int) -> Int {
        Int(raw.loadUnaligned(fromByteOffset: offset, as: UInt32.self).littleEndian)
    }

    private func i32(_ raw: UnsafeRawBufferPointer, _ offset: Int) -> Int {
        Int(raw.loadUnaligned(fromByteOffset: offset, as: Int32.self).littleEndian)
    }

    private func string(_ raw: UnsafeRawBufferPointer, at offset: Int) -> String {
        guard offset >= 0, offset < stringBytes else { return "" }
        let start = strings + offset
        let end = raw[start..<(strings + stringBytes)].firstIndex(of: 0) ?? (strings + stringBytes)
        return String(decoding: UnsafeRawBufferPointer(rebasing: raw[start..<end]), as: UTF8.self)
    }

    /// The place nearest to `position`, if one lies within `maxKilometres`.
    public func nearest(to position: GeoPosition, maxKilometres: Double = 50) -> PlaceName? {
        file.withBytes { raw -> PlaceName? in
            // The box of cells that can hold a place within reach: a degree of longitude
            // shrinks towards the poles, so near them the box spans more columns.
            let reachLatitude = maxKilometres / Self.kilometresPerDegree
            let shrink = max(0.01, cos(min(89.9, abs(position.latitude) + reachLatitude) * Double.pi / 180))
            let reachLongitude = min(180, reachLatitude / shrink)
            let firstRow = max(0, Int((position.latitude - reachLatitude + 90).rounded(.down)))
            let lastRow = min(rows - 1, Int((position.latitude + reachLatitude + 90).rounded(.down)))
            let firstColumn = Int((position.longitude - reachLongitude + 180).rounded(.down))
            let lastColumn = Int((position.longitude + reachLongitude + 180).rounded(.down))
            let columnCount = min(columns, lastColumn - firstColumn + 1)
            var best: (index: Int, kilometres: Double)?
            guard firstRow <= lastRow else { return nil }
            for row in firstRow...lastRow {
                for step in 0..<columnCount {
                    let column = ((firstColumn + step) % columns + columns) % columns
                    let cell = row * columns + column
                    let start = u32(raw, cellStart + 4 * cell), end = u32(raw, cellStart + 4 * cell + 4)
                    guard start <= end, end <= placeCount else { continue }
                    for index in start..<end {
                        let latitude = Double(i32(raw, latitudes + 4 * index)) / Self.scale
                        let longitude = Double(i32(raw, longitudes + 4 * index)) / Self.scale
                        guard let place = GeoPosition(latitude: latitude, longitude: longitude) else { continue }
                        let distance = position.kilometres(to: place)
                        if distance <= maxKilometres, distance < (best?.kilometres ?? .infinity) { best = (index, distance) }
                    }
                }
            }
            guard let index = best?.index else { return nil }
            // A place without a region has 0xFFFF, past the last region, like any bad index.
            let region = Int(raw.loadUnaligned(fromByteOffset: regions + 2 * index, as: UInt16.self).littleEndian)
            let country = Int(raw[countries + index])
            return PlaceName(town: string(raw, at: u32(raw, names + 4 * index)),
                             region: region < regionCount ? string(raw, at: u32(raw, regionNames + 4 * region)) : "",
                             country: country < countryCount ? string(raw, at: u32(raw, countryNames + 4 * country)) : "")
        }
    }
}
