extension Location {
    /// A member of a location beside its coordinates, named as CloudKit's location dictionary
    /// (a `CLLocation`'s) names it.
    public enum Detail: String, CaseIterable, Sendable, Hashable {
        case altitude, horizontalAccuracy, verticalAccuracy, speed, course, timestamp

        /// Whether the member is a time — a whole number of milliseconds since 1970, written as
        /// a time where the form has one — rather than a measurement (any finite number).
        public var isTime: Bool { self == .timestamp }

        /// What the member holds, in its unit.
        public var summary: String {
            switch self {
            case .altitude: "Metres above sea level."
            case .horizontalAccuracy: "Radius of uncertainty of the coordinates, in metres."
            case .verticalAccuracy: "Uncertainty of the altitude, in metres."
            case .speed: "Metres per second."
            case .course: "Degrees clockwise from due north."
            case .timestamp: "When the location was determined."
            }
        }
    }

    /// The members present beside the coordinates, in ``Detail``'s order, each with its value
    /// (a whole number of milliseconds for a time).
    public var details: [(detail: Detail, value: Double)] {
        Detail.allCases.compactMap { detail in self[detail].map { (detail, $0) } }
    }

    /// The value of `detail`, `nil` when absent.
    public subscript(detail: Detail) -> Double? {
        switch detail {
        case .altitude: altitude
        case .horizontalAccuracy: horizontalAccuracy
        case .verticalAccuracy: verticalAccuracy
        case .speed: speed
        case .course: course
        case .timestamp: timestamp.map(Double.init)
        }
    }

    /// Sets `detail` to `value`; `false`, changing nothing, when `value` cannot be one (not finite;
    /// a time not a whole number of milliseconds within ±8.64e15).
    public mutating func setDetail(_ detail: Detail, to value: Double) -> Bool {
        guard value.isFinite else { return false }
        switch detail {
        case .altitude: altitude = value
        case .horizontalAccuracy: horizontalAccuracy = value
        case .verticalAccuracy: verticalAccuracy = value
        case .speed: speed = value
        case .course: course = value
        case .timestamp:
            guard value.rounded() == value, abs(value) <= 8.64e15 else { return false }
            timestamp = Int64(value)
        }
        return true
    }
}
