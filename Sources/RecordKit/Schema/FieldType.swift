import Foundation

/// The type of a field: CloudKit's set (CloudKit's data model, as the README describes it).
public enum FieldType: Sendable, Hashable, Codable, CustomStringConvertible {
    case string
    case int64
    case double
    /// CKDB's `NUMBER`, optionally `PREFERRED AS INT64|DOUBLE`. Stores integers or doubles.
    case number(preferred: NumberPreference?)
    case timestamp
    case bytes
    case reference
    /// A file's bytes kept outside the record row, with size and SHA-256.
    case asset
    /// Latitude and longitude in degrees.
    case location
    indirect case list(FieldType)

    /// What `NUMBER PREFERRED AS …` names.
    public enum NumberPreference: String, Sendable, Hashable, Codable {
        case int64 = "INT64"
        case double = "DOUBLE"
    }

    /// The CKDB spelling: `STRING`, `LIST<INT64>`, `NUMBER PREFERRED AS DOUBLE`.
    public var description: String {
        switch self {
        case .string: "STRING"
        case .int64: "INT64"
        case .double: "DOUBLE"
        case .number(nil): "NUMBER"
        case .number(let preferred?): "NUMBER PREFERRED AS \(preferred.rawValue)"
        case .timestamp: "TIMESTAMP"
        case .bytes: "BYTES"
        case .reference: "REFERENCE"
        case .asset: "ASSET"
        case .location: "LOCATION"
        case .list(let element): "LIST<\(element)>"
        }
    }

    /// The element type of a list, or `nil`.
    public var elementType: FieldType? {
        if case .list(let element) = self { return element }
        return nil
    }

    /// Whether values of this type are ordered (usable with `<`, `BETWEEN`, sorting).
    public var isOrdered: Bool {
        switch self {
        case .string, .int64, .double, .number, .timestamp, .reference: true
        case .bytes, .asset, .location, .list: false
        }
    }

    /// Every type but lists, in the order CKDB lists them.
    static let scalarTypes: [FieldType] = [.string, .int64, .double, .number(preferred: nil), .timestamp, .bytes, .reference, .asset, .location]

    /// The ordered types (``isOrdered``) as a message names them, for saying what to sort or
    /// compare by instead: `STRING, INT64, DOUBLE, NUMBER, TIMESTAMP or REFERENCE`.
    public static let orderedTypeNames = scalarTypes.filter(\.isOrdered).map(\.description).listedAsAlternatives

    /// Every type but lists as a message lists them before offering lists too (`… or
    /// LIST<T>`): `STRING, INT64, DOUBLE, NUMBER, TIMESTAMP, BYTES, REFERENCE, ASSET, LOCATION`.
    public static let scalarTypeNames = scalarTypes.map(\.description).joined(separator: ", ")

    /// Parses the simple spellings used on command lines (`INT64`, `LIST<STRING>`,
    /// `NUMBER PREFERRED AS INT64`), case-insensitively. The CKDB parser accepts the full grammar.
    public init?(parsing text: String) {
        let spelled = text.trimmingCharacters(in: .whitespaces).uppercased()
        if spelled.hasPrefix("LIST<"), spelled.hasSuffix(">") {
            guard let element = FieldType(parsing: String(spelled.dropFirst(5).dropLast())) else { return nil }
            self = .list(element)
            return
        }
        switch spelled {
        case "STRING": self = .string
        case "INT64": self = .int64
        case "DOUBLE": self = .double
        case "NUMBER": self = .number(preferred: nil)
        case "NUMBER PREFERRED AS INT64": self = .number(preferred: .int64)
        case "NUMBER PREFERRED AS DOUBLE": self = .number(preferred: .double)
        case "TIMESTAMP": self = .timestamp
        case "BYTES": self = .bytes
        case "REFERENCE": self = .reference
        case "ASSET": self = .asset
        case "LOCATION": self = .location
        default: return nil
        }
    }
}
