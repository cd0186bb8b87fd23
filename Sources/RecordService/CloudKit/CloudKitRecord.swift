import Foundation
import RecordKit

/// CloudKit's record dictionary as responses carry it: `recordName`, `recordType`,
/// `recordChangeTag`, `fields` (each with its type tag), `created` and `modified`
/// (`{"timestamp"}` in milliseconds). Absent values are left out, never `null`.
enum CloudKitRecord {
    /// The dictionary of `record`, a record of `type`; with `desiredKeys`, only those fields.
    static func encode(_ record: Record, type: RecordType?, desiredKeys: Set<String>? = nil, assetURL: (Asset) -> String) -> JSONValue {
        var fields: [String: JSONValue] = [:]
        for (name, value) in record.fields where desiredKeys?.contains(name) ?? true {
            let fieldType = type?.field(named: name)?.type ?? Self.type(of: value)
            fields[name] = CloudKitFieldValue.encode(value, type: fieldType, assetURL: assetURL)
        }
        var members: [String: JSONValue] = [
            "recordName": .string(record.recordName),
            "recordType": .string(record.recordType),
            "fields": .object(fields),
            "deleted": .bool(false),
        ]
        if let changeTag = record.changeTag { members["recordChangeTag"] = .string(changeTag) }
        if let createdAt = record.createdAt { members["created"] = timestamp(createdAt) }
        if let modifiedAt = record.modifiedAt { members["modified"] = timestamp(modifiedAt) }
        return .object(members)
    }

    /// The result of a deletion: the record named and its type, `deleted: true`.
    static func deleted(recordName: String, recordType: String) -> JSONValue {
        .object(["recordName": .string(recordName), "recordType": .string(recordType), "deleted": .bool(true)])
    }

    private static func timestamp(_ date: Date) -> JSONValue {
        .object(["timestamp": .integer(Timestamp.milliseconds(date))])
    }

    /// The type a value's own kind names, for a value whose field is not in the schema given.
    private static func type(of value: Value) -> FieldType {
        switch value {
        case .string: .string
        case .int64: .int64
        case .double: .double
        case .timestamp: .timestamp
        case .bytes: .bytes
        case .reference: .reference
        case .asset: .asset
        case .location: .location
        case .list(let values): .list(values.first.map(type(of:)) ?? .string)
        }
    }
}
