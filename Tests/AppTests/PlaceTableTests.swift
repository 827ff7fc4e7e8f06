import Graphics
import Imaging
import Platform
import Testing
import TestSupport
@testable import PhotoKioskApp

/// The place line: EXIF GPS positions the test writes, through the photo's details, to the
/// shipped GeoNames table (assets/places/places.bin).
@Suite struct PlaceTableTests {
    static let tablePath = "/" + String(#filePath).split(separator: "/").dropLast(3).joined(separator: "/") + "/assets/places/places.bin"
    let table: PlaceTable
    let scratch = ScratchDirectory()

    init() throws { table = try PlaceTable(path: Self.tablePath) }

    func place(_ latitude: Double, _ longitude: Double) throws -> PlaceName? {
        table.nearest(to: try #require(GeoPosition(latitude: latitude, longitude: longitude)))
    }

    @Test func aPhotoWithAGPSPositionIsNamed() throws {
        let bytes = try JPEGEncoder.encode(Bitmap(width: 8, height: 8), options: .init(markers: [
            .exif(tiff: TIFFBuilder(gps: (latitude: 46.3683, longitude: 14.1136)).build()),
        ]))
        let file = scratch.file("bled.jpg", bytes: bytes)
        let info = OverlayPhotoInfo.read(file, places: PlaceLookup(path: Self.tablePath, logger: .init(label: "test")),
                                         format: try #require(LocaleTimeFormat(named: "C")))
        #expect(info.place == "Bled, Slovenia")
    }

    @Test func nearestTownWithRegionAndCountry() throws {
        #expect(try place(48.8566, 2.3522)?.description == "Paris, Ile-de-France, France")
        // Not a city's area, the nearest point: by the Eiffel tower that is a suburb's centre.
        #expect(try place(48.8584, 2.2945)?.town == "Neuilly-sur-Seine")
        #expect(try place(40.6892, -74.0445)?.country == "United States")
        #expect(try place(-33.8568, 151.2153)?.region == "New South Wales")
        #expect(try place(35.6586, 139.7454)?.country == "Japan")
    }

    @Test func cellsAcrossTheDateLineAndThePrimeMeridianAreSearched() throws {
        // Egvekinot (Chukotka) lies at 179.12 W: from just east of 180 it is 39 km away, in the
        // grid's first column while the position is in its last.
        #expect(try place(66.32, 179.99)?.town == "Egvekinot")
        // Poplar lies just west of Greenwich's meridian, a cell away from a position east of it.
        #expect(try place(51.5111, 0.001)?.town == "Poplar")
    }

    @Test func theOpenSeaHasNoPlace() throws {
        #expect(try place(-40.0, -30.0) == nil)      // the South Atlantic
        #expect(try place(89.9, 0.0) == nil)         // the North Pole
    }

    @Test func aDamagedTableIsRefused() throws {
        let whole = try #require(readFile(RawPath(Self.tablePath)))
        let cut = scratch.file("cut.bin", bytes: Array(whole.prefix(whole.count - 100)))
        #expect(throws: PlaceTable.FormatError.self) { try PlaceTable(path: cut.description) }
        let other = scratch.file("other.bin", bytes: Array("not a table at all, but long enough".utf8))
        #expect(throws: PlaceTable.FormatError.self) { try PlaceTable(path: other.description) }
        #expect(throws: (any Error).self) { try PlaceTable(path: scratch["missing.bin"].description) }
    }
}
