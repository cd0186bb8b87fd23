import Foundation

/// A LOCATION value: latitude and longitude in degrees, and what CloudKit's location dictionary
/// carries beside them (a `CLLocation`'s altitude, accuracies, speed, course and time), kept as
/// given.
public struct Location: Sendable, Hashable, Codable, CustomStringConvertible {
    public var latitude: Double
    public var longitude: Double
    /// Metres above sea level.
    public var altitude: Double?
    /// Radius of uncertainty of the coordinates, in metres.
    public var horizontalAccuracy: Double?
    /// Uncertainty of the altitude, in metres.
    public var verticalAccuracy: Double?
    /// Metres per second.
    public var speed: Double?
    /// Degrees clockwise from due north.
    public var course: Double?
    /// When the location was determined, in milliseconds since 1970.
    public var timestamp: Int64?

    public init(
        latitude: Double, longitude: Double, altitude: Double? = nil, horizontalAccuracy: Double? = nil, verticalAccuracy: Double? = nil,
        speed: Double? = nil, course: Double? = nil, timestamp: Int64? = nil
    ) {
        self.latitude = latitude
        self.longitude = longitude
        self.altitude = altitude
        self.horizontalAccuracy = horizontalAccuracy
        self.verticalAccuracy = verticalAccuracy
        self.speed = speed
        self.course = course
        self.timestamp = timestamp
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
