import Foundation
import RecordKit
import RecordQL

/// Records in CloudKit's JSON, as the server's `records/lookup` answers, read back into
/// RecordKit's records with their values exactly as stored: a reference keeps its action and
/// its recordName even when the record it names is gone, an asset its SHA-256
/// (`fileChecksum`) and size, a timestamp its milliseconds.
enum CloudKitRecords {
    /// One record of an answer, its values typed by `type`.
    static func record(_ json: JSONValue, of type: RecordType) throws(RecordError) -> Record {
        guard case .string(let recordName)? = json["recordName"] else {
            throw RecordError(.internalError, "a \(type.name) record in the server's answer has no recordName")
        }
        var record = Record(type.name, recordName: recordName)
        if case .string(let tag)? = json["recordChangeTag"] { record.changeTag = tag }
        record.createdAt = date(json["created"]?["timestamp"])
        record.modifiedAt = date(json["modified"]?["timestamp"])
        for field in type.userFields {
            guard let stored = json["fields"]?[field.name]?["value"] else { continue }
            guard let value = value(stored, type: field.type) else {
                throw RecordError(
                    .internalError, "the server sent \(type.name).\(field.name) of \(recordName) as \(stored.text), which is not a \(field.type) value")
            }
            record.fields[field.name] = value
        }
        return record
    }

    /// A CloudKit field value as a value of `type`; `nil` when it does not fit.
    static func value(_ json: JSONValue, type: FieldType) -> Value? {
        switch (type, json) {
        case (.list(let element), .array(let items)):
            var values: [Value] = []
            for item in items {
                guard let value = value(item, type: element) else { return nil }
                values.append(value)
            }
            return .list(values)
        case (.string, .string(let text)): return .string(text)
        case (.int64, .number(let text)): return Int64(text).map(Value.int64)
        case (.double, .number(let text)): return Double(text).map(Value.double)
        case (.number, .number(let text)):
            // An integer stays one; a double is written with a point or an exponent.
            return Int64(text).map(Value.int64) ?? Double(text).map(Value.double)
        case (.timestamp, .number): return date(json).map(Value.timestamp)
        case (.bytes, .string(let text)): return Data(base64Encoded: text).map(Value.bytes)
        case (.reference, .object):
            guard case .string(let name)? = json["recordName"] else { return nil }
            let action: Reference.Action = if case .string(let text)? = json["action"] { Reference.Action(rawValue: text) ?? .none } else { .none }
            return .reference(Reference(name, action: action))
        case (.location, .object):
            guard case .number(let latitude)? = json["latitude"], case .number(let longitude)? = json["longitude"],
                let lat = Double(latitude), let lon = Double(longitude)
            else { return nil }
            return .location(Location(latitude: lat, longitude: lon))
        case (.asset, .object):
            guard case .string(let sha256)? = json["fileChecksum"], case .number(let size)? = json["size"], let bytes = Int(size) else { return nil }
            return .asset(Asset(size: bytes, sha256: sha256))
        default: return nil
        }
    }

    /// Milliseconds since 1970 (fractions allowed) as a date.
    private static func date(_ json: JSONValue?) -> Date? {
        guard case .number(let text)? = json, let milliseconds = Double(text) else { return nil }
        if let whole = Int64(text) { return Timestamp.date(milliseconds: whole) }
        return Date(timeIntervalSince1970: milliseconds / 1000)
    }
}
