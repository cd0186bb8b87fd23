import Foundation
import RecordKit

/// CloudKit's record dictionary as responses carry it: `recordName`, `recordType`,
/// `recordChangeTag`, `fields` (each with its type tag), `created` and `modified`
/// (`{"timestamp", "userRecordName"}`, the time in milliseconds). Absent values are left out,
/// never `null`.
enum CloudKitRecord {
    /// The dictionary of `record`, a record of `type`; with `desiredKeys`, only those fields;
    /// with `authors`, the user record names of its creator and last modifier.
    static func encode(
        _ record: Record, type: RecordType?, desiredKeys: Set<String>? = nil, authors: (createdBy: String, modifiedBy: String)? = nil,
        assetURL: (Asset) -> String
    ) -> JSONValue {
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
        if let createdAt = record.createdAt { members["created"] = stamp(createdAt, user: authors?.createdBy) }
        if let modifiedAt = record.modifiedAt { members["modified"] = stamp(modifiedAt, user: authors?.modifiedBy) }
        return .object(members)
    }

    /// The result of a deletion: the record named and its type, `deleted: true`.
    static func deleted(recordName: String, recordType: String) -> JSONValue {
        .object(["recordName": .string(recordName), "recordType": .string(recordType), "deleted": .bool(true)])
    }

    /// `{"timestamp", "userRecordName"}`.
    private static func stamp(_ date: Date, user: String?) -> JSONValue {
        var members: [String: JSONValue] = ["timestamp": .integer(Timestamp.milliseconds(date))]
        if let user { members["userRecordName"] = .string(user) }
        return .object(members)
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
