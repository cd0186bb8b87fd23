import Foundation
import RecordKit
import RecordQL

/// The two JSON forms a server writes record values in, read back into RecordKit's values by
/// one decoder: GraphQL's answers (``GraphQLRecords``) and CloudKit's (``CloudKitRecords``).
/// Strings, numbers, bytes (base64) and locations are written alike; they differ in
/// timestamps, assets, references and what a list does with a value it cannot read.
enum ServerValueForm {
    /// GraphQL's: a TIMESTAMP as ISO-8601 text, an asset as `{size, sha256}`, a reference as
    /// `{recordName}` — `null` when the record it names is gone, and then left out of a list.
    case graphQL
    /// CloudKit's: a TIMESTAMP as milliseconds since 1970, an asset as `{fileChecksum, size}`, a
    /// reference with its `action` (and its recordName even when its record is gone); a list
    /// holding a value that does not fit does not fit.
    case cloudKit

    /// `json` as a value of `type`; `nil` for `null` and for a value that does not fit.
    func value(_ json: JSONValue, type: FieldType) -> Value? {
        switch (type, json) {
        case (.list(let element), .array(let items)):
            var values: [Value] = []
            for item in items {
                if let value = value(item, type: element) {
                    values.append(value)
                } else if self == .cloudKit {
                    return nil
                }
            }
            return .list(values)
        case (.string, .string(let text)): return .string(text)
        case (.int64, .number(let text)): return Int64(text).map(Value.int64)
        case (.double, .number(let text)): return Double(text).map(Value.double)
        case (.number, .number(let text)):
            // An integer stays one; a double is written with a point or an exponent.
            return Int64(text).map(Value.int64) ?? Double(text).map(Value.double)
        case (.timestamp, .number) where self == .cloudKit: return Self.date(json).map(Value.timestamp)
        case (.timestamp, .string(let text)) where self == .graphQL: return Timestamp.parse(text).map(Value.timestamp)
        case (.bytes, .string(let text)): return Data(base64Encoded: text).map(Value.bytes)
        case (.reference, .object):
            guard case .string(let name)? = json["recordName"] else { return nil }
            guard self == .cloudKit else { return .reference(Reference(name)) }
            let action: Reference.Action = if case .string(let text)? = json["action"] { Reference.Action(rawValue: text) ?? .none } else { .none }
            return .reference(Reference(name, action: action))
        case (.location, .object):
            guard case .number(let latitude)? = json["latitude"], case .number(let longitude)? = json["longitude"],
                let lat = Double(latitude), let lon = Double(longitude)
            else { return nil }
            var location = Location(latitude: lat, longitude: lon)
            for detail in Location.Detail.allCases {
                switch json[detail.rawValue] {
                case .number(let text)?: _ = Double(text).map { location.setDetail(detail, to: $0) }
                case .string(let text)? where detail.isTime && self == .graphQL:
                    _ = Timestamp.parse(text).map { location.setDetail(detail, to: Double(Timestamp.milliseconds($0))) }
                default: break
                }
            }
            return .location(location)
        case (.asset, .object):
            let checksumKey = self == .cloudKit ? "fileChecksum" : "sha256"
            guard case .string(let sha256)? = json[checksumKey], case .number(let size)? = json["size"], let bytes = Int(size) else { return nil }
            return .asset(Asset(size: bytes, sha256: sha256))
        default: return nil
        }
    }

    /// Milliseconds since 1970 (fractions allowed) as a date.
    static func date(_ json: JSONValue?) -> Date? {
        guard case .number(let text)? = json, let milliseconds = Double(text) else { return nil }
        if let whole = Int64(text) { return Timestamp.date(milliseconds: whole) }
        return Date(timeIntervalSince1970: milliseconds / 1000)
    }
}
