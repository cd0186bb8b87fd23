import Foundation
import RecordKit
import RecordQL

extension JSONValue {
    /// `value` in the JSON shapes the query language uses: INT64 and DOUBLE as numbers,
    /// TIMESTAMP as ISO-8601 text, BYTES as base64, LOCATION as `{latitude, longitude, …}`, ASSET as
    /// `{size, sha256}`, LIST as an array. A REFERENCE is `{recordName, name}`, `name` being the
    /// referenced record's name as `names` gives it (`null` when it has none or is gone).
    init(_ value: Value, names: (String) -> String?) {
        switch value {
        case .string(let text): self = .string(text)
        case .int64(let number): self = .number(number)
        case .double(let number): self = .number(number)
        case .timestamp(let date): self = .string(Timestamp.format(date))
        case .bytes(let data): self = .string(data.base64EncodedString())
        case .reference(let reference):
            self = .members(["recordName": .string(reference.recordName), "name": names(reference.recordName).map(JSONValue.string) ?? .null])
        case .asset(let asset): self = .members(["size": .number(asset.size), "sha256": .string(asset.sha256)])
        case .location(let location): self = .location(location)
        case .list(let values): self = .array(values.map { JSONValue($0, names: names) })
        }
    }

    /// A record's system fields (unless `systemFields` is false), then its values of `fields`
    /// (a record type's user fields, in schema order; `null` when unset).
    init(_ record: Record, fields: [FieldDefinition], names: (String) -> String?, systemFields: Bool = true) {
        var members: [Member] = []
        members.reserveCapacity(fields.count + (systemFields ? 5 : 0))
        if systemFields {
            members.append(Member(key: "recordName", value: .string(record.recordName)))
            members.append(Member(key: "recordType", value: .string(record.recordType)))
            members.append(Member(key: "createdAt", value: record.createdAt.map { .string(Timestamp.format($0)) } ?? .null))
            members.append(Member(key: "modifiedAt", value: record.modifiedAt.map { .string(Timestamp.format($0)) } ?? .null))
            members.append(Member(key: "changeTag", value: record.changeTag.map(JSONValue.string) ?? .null))
        }
        for field in fields {
            members.append(Member(key: field.name, value: record[field.name].map { JSONValue($0, names: names) } ?? .null))
        }
        self = .object(members)
    }
}

extension JSONValue {
    /// A failed command's document, shaped as a failed GraphQL response:
    /// `{"errors":[{"message": …, "extensions": {"code": …}}]}`.
    init(_ error: RecordError) {
        let entry = JSONValue.members(["message": .string(error.sentence), "extensions": .members(["code": .string(error.code.rawValue)])])
        self = .members(["errors": .array([entry])])
    }
}
