import Glibc

/// A position on the earth in degrees (WGS 84, as GPS receivers and EXIF give it).
public struct GeoPosition: Hashable, Sendable, CustomStringConvertible {
    /// -90 (south pole) ... 90 (north pole).
    public var latitude: Double
    /// -180 (west) ... 180 (east).
    public var longitude: Double

    /// Nil outside the globe's ranges, and for exactly (0, 0): what a camera writes when it had
    /// no fix, not a photo taken in the Gulf of Guinea.
    public init?(latitude: Double, longitude: Double) {
        guard latitude.isFinite, longitude.isFinite, abs(latitude) <= 90, abs(longitude) <= 180,
              latitude != 0 || longitude != 0 else { return nil }
        self.latitude = latitude
        self.longitude = longitude
    }

    public var description: String { "\(latitude), \(longitude)" }

    static let earthRadiusKilometres = 6371.0

    /// Great-circle distance in kilometres (haversine).
    public func kilometres(to other: GeoPosition) -> Double {
        let radians = Double.pi / 180
        let dLat = (other.latitude - latitude) * radians
        let dLon = (other.longitude - longitude) * radians
        let sinLat = sin(dLat / 2), sinLon = sin(dLon / 2)
        let a = sinLat * sinLat + cos(latitude * radians) * cos(other.latitude * radians) * sinLon * sinLon
        return 2 * Self.earthRadiusKilometres * asin(min(1, a.squareRoot()))
    }
}

