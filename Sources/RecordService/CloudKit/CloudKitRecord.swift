import Foundation
import RecordKit

/// CloudKit's record dictionary as responses carry it: `recordName`, `recordType`,
/// `recordChangeTag`, `fields` (each with its type tag), `created` and `modified`
/// (`{"timestamp", "userRecordName"}`, the time in milliseconds), `zoneID`. Absent values are
/// left out, never `null`. A record is written straight to JSON bytes, its keys in the sorted
/// order every response has (a page of records is most of what `records/query` answers, and a
/// tree of dictionaries per record, sorted when written, cost three quarters of its time).
enum CloudKitRecord {
    /// The dictionary of `record`, a record of `type`, in `zone`, in the `form` asked for (only
    /// the desired fields, numbers as strings); with `authors`, the user record names of its
    /// creator and last modifier.
    static func encode(
        _ record: Record, type: RecordType?, form: CloudKitRecordForm = .full, authors: (createdBy: String, modifiedBy: String)? = nil,
        zone: String, assetURL: (Asset) -> String
    ) -> JSONValue {
        var json = JSONBuffer(capacity: 320 + 64 * record.fields.count)
        write(record, type: type, form: form, authors: authors, zone: zone, assetURL: assetURL, to: &json)
        return .written(json.bytes)
    }

    /// Appends the dictionary ``encode(_:type:form:authors:zone:assetURL:)`` makes to `json`.
    static func write(
        _ record: Record, type: RecordType?, form: CloudKitRecordForm, authors: (createdBy: String, modifiedBy: String)?,
        zone: String, assetURL: (Asset) -> String, to json: inout JSONBuffer
    ) {
        json.raw("{")
        if let createdAt = record.createdAt {
            json.raw("\"created\":")
            stamp(createdAt, user: authors?.createdBy, to: &json)
        }
        json.raw("\"deleted\":false,\"fields\":{")
        var first = true
        for (name, value) in record.fields.sorted(by: { $0.key < $1.key }) where form.includes(name) {
            if !first { json.raw(",") }
            first = false
            json.string(name)
            json.raw(":")
            CloudKitFieldValue.write(
                value, type: type?.field(named: name)?.type ?? Self.type(of: value), numbersAsStrings: form.numbersAsStrings, assetURL: assetURL, to: &json)
        }
        json.raw("},")
        if let modifiedAt = record.modifiedAt {
            json.raw("\"modified\":")
            stamp(modifiedAt, user: authors?.modifiedBy, to: &json)
        }
        if let changeTag = record.changeTag {
            json.raw("\"recordChangeTag\":")
            json.string(changeTag)
            json.raw(",")
        }
        json.raw("\"recordName\":")
        json.string(record.recordName)
        json.raw(",\"recordType\":")
        json.string(record.recordType)
        json.raw(",\"zoneID\":{\"ownerRecordName\":")
        json.string(CloudKitZone.defaultOwnerName)
        json.raw(",\"zoneName\":")
        json.string(zone)
        json.raw("}}")
    }

    /// The result of a deletion: the record named and its type, `deleted: true`.
    static func deleted(recordName: String, recordType: String) -> JSONValue {
        .object(["recordName": .string(recordName), "recordType": .string(recordType), "deleted": .bool(true)])
    }

    /// `{"timestamp":…,"userRecordName":…},`.
    private static func stamp(_ date: Date, user: String?, to json: inout JSONBuffer) {
        json.raw("{\"timestamp\":")
        json.number(Timestamp.milliseconds(date))
        if let user {
            json.raw(",\"userRecordName\":")
            json.string(user)
        }
        json.raw("},")
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
