import Foundation

/// A LOCATION value: latitude and longitude in degrees.
public struct Location: Sendable, Hashable, Codable, CustomStringConvertible {
    public var latitude: Double
    public var longitude: Double

    public init(latitude: Double, longitude: Double) {
        self.latitude = latitude
        self.longitude = longitude
    }

    /// Whether both coordinates are finite and in range.
    public var isValid: Bool {
        latitude.isFinite && longitude.isFinite && abs(latitude) <= 90 && abs(longitude) <= 180
    }

    /// Great-circle distance in kilometres (haversine, mean Earth radius 6371.0088 km),
    /// what CloudKit's `distanceToLocation:fromLocation:` compares.
    public func distance(to other: Location) -> Double {
        let radians = Double.pi / 180
        let dLat = (other.latitude - latitude) * radians
        let dLon = (other.longitude - longitude) * radians
        let a =
            sin(dLat / 2) * sin(dLat / 2)
            + cos(latitude * radians) * cos(other.latitude * radians) * sin(dLon / 2) * sin(dLon / 2)
        return 2 * 6371.0088 * atan2(a.squareRoot(), (1 - a).squareRoot())
    }

    public var description: String { "(\(latitude), \(longitude))" }
}
