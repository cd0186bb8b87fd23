import Foundation
import RecordKit

/// CloudKit's record dictionary as responses carry it: `recordName`, `recordType`,
/// `recordChangeTag`, `fields` (each with its type tag), `created` and `modified`
/// (`{"timestamp", "userRecordName"}`, the time in milliseconds), `zoneID`. Absent values are
/// left out, never `null`. A record is written straight to JSON text, its keys in the sorted
/// order every response has (a page of records is most of what `records/query` answers, and a
/// tree of dictionaries per record, sorted when written, cost three quarters of its time).
enum CloudKitRecord {
    /// The dictionary of `record`, a record of `type`, in `zone`; with `desiredKeys`, only those
    /// fields; with `authors`, the user record names of its creator and last modifier.
    static func encode(
        _ record: Record, type: RecordType?, desiredKeys: Set<String>? = nil, authors: (createdBy: String, modifiedBy: String)? = nil,
        zone: String, assetURL: (Asset) -> String
    ) -> JSONValue {
        var text = "{"
        // One allocation for most records instead of one for each time the text outgrows itself.
        text.reserveCapacity(320 + 64 * record.fields.count)
        if let createdAt = record.createdAt { stamp("created", createdAt, user: authors?.createdBy, to: &text) }
        text += "\"deleted\":false,\"fields\":{"
        var first = true
        for (name, value) in record.fields.sorted(by: { $0.key < $1.key }) where desiredKeys?.contains(name) ?? true {
            if !first { text += "," }
            first = false
            JSONText.append(name, to: &text)
            text += ":"
            CloudKitFieldValue.write(value, type: type?.field(named: name)?.type ?? Self.type(of: value), assetURL: assetURL, to: &text)
        }
        text += "},"
        if let modifiedAt = record.modifiedAt { stamp("modified", modifiedAt, user: authors?.modifiedBy, to: &text) }
        if let changeTag = record.changeTag {
            text += "\"recordChangeTag\":"
            JSONText.append(changeTag, to: &text)
            text += ","
        }
        text += "\"recordName\":"
        JSONText.append(record.recordName, to: &text)
        text += ",\"recordType\":"
        JSONText.append(record.recordType, to: &text)
        text += ",\"zoneID\":"
        CloudKitZone.zoneID(zone).write(to: &text)
        text += "}"
        return .written(text)
    }

    /// The result of a deletion: the record named and its type, `deleted: true`.
    static func deleted(recordName: String, recordType: String) -> JSONValue {
        .object(["recordName": .string(recordName), "recordType": .string(recordType), "deleted": .bool(true)])
    }

    /// `"key":{"timestamp":…,"userRecordName":…},`.
    private static func stamp(_ key: String, _ date: Date, user: String?, to text: inout String) {
        text += "\"\(key)\":{\"timestamp\":\(Timestamp.milliseconds(date))"
        if let user {
            text += ",\"userRecordName\":"
            JSONText.append(user, to: &text)
        }
        text += "},"
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
