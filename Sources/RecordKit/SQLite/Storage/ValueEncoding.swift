import Foundation
internal import GRDB

/// How values are stored: one column per field (plus the action column of a REFERENCE), checked
/// against the field's type on the way in.
///
/// | type | stored as |
/// |---|---|
/// | STRING, REFERENCE | TEXT (the recordName; the action in `_action_<field>`, 1 = DELETE_SELF) |
/// | INT64 / DOUBLE / NUMBER | INTEGER / REAL / either |
/// | TIMESTAMP | INTEGER milliseconds since 1970 |
/// | BYTES | BLOB |
/// | ASSET | TEXT `{"sha256":…,"size":…}`, content in `_assets` |
/// | LOCATION | TEXT `[latitude,longitude]`, or `[latitude,longitude,{"altitude":…,…}]` with the members present beside them |
/// | LIST<T> | TEXT, a JSON array of the element encodings (references as objects) |
enum ValueEncoding {
    /// The stored column values of `value` in `field` of `recordType`: the value column and, for
    /// a REFERENCE, the action column. Assets met on the way are appended to `assets`.
    static func encode(
        _ value: Value, for field: FieldDefinition, in recordType: String, assets: inout [Asset]
    ) throws(RecordError) -> (value: DatabaseValue, action: DatabaseValue?) {
        switch (field.type, value) {
        case (.reference, .reference(let reference)):
            try checkRecordName(reference.recordName, field: field.name, in: recordType)
            return (reference.recordName.databaseValue, (reference.action == .deleteSelf ? 1 : 0).databaseValue)
        case (.list(let element), .list(let values)):
            var json = "["
            for (index, item) in values.enumerated() {
                if index > 0 { json += "," }
                guard let text = try jsonElement(item, type: element, field: field, in: recordType, assets: &assets) else {
                    throw RecordError(
                        .schemaViolation,
                        "\(recordType).\(field.name) is \(field.type) but element \(index) is \(item.kindName) \(preview(item))",
                        recordType: recordType, field: field.name
                    )
                }
                json += text
            }
            json += "]"
            try checkSize(json.utf8.count, of: field, in: recordType, what: "stored list")
            return (json.databaseValue, nil)
        default:
            guard let stored = try scalar(value, type: field.type, field: field, in: recordType, assets: &assets) else {
                throw RecordError(
                    .schemaViolation,
                    "\(recordType).\(field.name) is \(field.type) but the value given is \(value.kindName) \(preview(value))",
                    recordType: recordType, field: field.name
                )
            }
            return (stored, nil)
        }
    }

    /// The value stored in `column` (with `action` for a REFERENCE), `nil` when absent.
    static func decode(_ column: DatabaseValue, action: DatabaseValue?, type: FieldType) -> Value? {
        if column.isNull { return nil }
        switch type {
        case .string: return String.fromDatabaseValue(column).map(Value.string)
        case .int64: return Int64.fromDatabaseValue(column).map(Value.int64)
        case .double: return Double.fromDatabaseValue(column).map(Value.double)
        case .number:
            if case .int64(let number) = column.storage { return .int64(number) }
            return Double.fromDatabaseValue(column).map(Value.double)
        case .timestamp: return Int64.fromDatabaseValue(column).map { .timestamp(Timestamp.date(milliseconds: $0)) }
        case .bytes: return Data.fromDatabaseValue(column).map(Value.bytes)
        case .reference:
            guard let name = String.fromDatabaseValue(column) else { return nil }
            let deleteSelf = action.flatMap(Int.fromDatabaseValue) == 1
            return .reference(Reference(name, action: deleteSelf ? .deleteSelf : .none))
        case .asset, .location, .list:
            guard let text = String.fromDatabaseValue(column),
                let json = try? JSONSerialization.jsonObject(with: Data(text.utf8), options: [.fragmentsAllowed])
            else { return nil }
            return decodeJSON(json, type: type)
        }
    }

    /// The value of a field read straight from `row` (with its action column for a REFERENCE),
    /// `nil` when absent. The common types go through GRDB's typed column accessors, which read
    /// SQLite's column without building a `DatabaseValue` first; this runs for every field of
    /// every record fetched.
    static func decode(_ row: Row, column: Int, actionColumn: Int?, type: FieldType) -> Value? {
        switch type {
        case .string: return (row[column] as String?).map(Value.string)
        case .int64: return (row[column] as Int64?).map(Value.int64)
        case .double: return (row[column] as Double?).map(Value.double)
        case .timestamp: return (row[column] as Int64?).map { .timestamp(Timestamp.date(milliseconds: $0)) }
        case .reference:
            guard let name = row[column] as String? else { return nil }
            let deleteSelf = actionColumn.map { (row[$0] as Int64?) == 1 } ?? false
            return .reference(Reference(name, action: deleteSelf ? .deleteSelf : .none))
        case .number, .bytes, .asset, .location, .list:
            return decode(row[column] as DatabaseValue, action: nil, type: type)
        }
    }

    /// A stored LOCATION (`[latitude,longitude]`, details after them).
    static func decodeLocation(_ text: String) -> Location? {
        guard let json = try? JSONSerialization.jsonObject(with: Data(text.utf8)) else { return nil }
        if case .location(let location) = decodeJSON(json, type: .location) { return location }
        return nil
    }

    /// The bound value a predicate literal compares with, for scalar `type`; `nil` if the
    /// literal's kind does not fit.
    static func scalar(
        _ value: Value, type: FieldType, field: FieldDefinition, in recordType: String, assets: inout [Asset]
    ) throws(RecordError) -> DatabaseValue? {
        switch (type, value) {
        case (.string, .string(let text)):
            try checkNoNUL(text, field: field.name, in: recordType)
            try checkSize(text.utf8.count, of: field, in: recordType, what: "string")
            return text.databaseValue
        case (.int64, .int64(let number)): return number.databaseValue
        case (.double, .double(let number)), (.number(_), .double(let number)):
            guard number.isFinite else {
                throw RecordError(
                    .invalidArguments,
                    "\(recordType).\(field.name): \(number) cannot be stored; DOUBLE values are finite numbers",
                    recordType: recordType, field: field.name
                )
            }
            return number.databaseValue
        case (.double, .int64(let number)): return Double(number).databaseValue
        case (.number(_), .int64(let number)): return number.databaseValue
        case (.timestamp, .timestamp(let date)): return Timestamp.milliseconds(date).databaseValue
        case (.bytes, .bytes(let data)):
            try checkSize(data.count, of: field, in: recordType, what: "bytes value")
            return data.databaseValue
        case (.location, .location(let location)):
            guard location.isValid else {
                throw RecordError(
                    .invalidArguments,
                    "\(recordType).\(field.name): \(location) is not a location (latitude within ±90, longitude within ±180)",
                    recordType: recordType, field: field.name
                )
            }
            return storedText(location).databaseValue
        case (.asset, .asset(let asset)):
            // An asset without its content names one stored already: the transaction checks it
            // (``RecordTransaction``'s `storeAsset`).
            if asset.size > Limits.maximumAssetBytes {
                throw RecordError(
                    .limitExceeded,
                    "\(recordType).\(field.name): the asset is \(asset.size) bytes; assets hold at most \(Limits.maximumAssetBytes) bytes",
                    recordType: recordType, field: field.name
                )
            }
            assets.append(asset)
            return "{\"sha256\":\"\(asset.sha256)\",\"size\":\(asset.size)}".databaseValue
        default: return nil
        }
    }

    /// A LOCATION as stored: `[latitude,longitude]`, and an object of the members present
    /// beside the coordinates after them (``Location/details``), so what reads `$[0]` and `$[1]`
    /// reads the coordinates either way.
    static func storedText(_ location: Location) -> String {
        let details = location.details
        guard !details.isEmpty else { return "[\(location.latitude),\(location.longitude)]" }
        let members = details.map { detail, value in
            "\"\(detail.rawValue)\":" + (detail.isTime ? String(Int64(value)) : String(value))
        }
        return "[\(location.latitude),\(location.longitude),{\(members.joined(separator: ","))}]"
    }

    private static func jsonElement(
        _ value: Value, type: FieldType, field: FieldDefinition, in recordType: String, assets: inout [Asset]
    ) throws(RecordError) -> String? {
        switch (type, value) {
        case (.string, .string(let text)):
            try checkNoNUL(text, field: field.name, in: recordType)
            return JSONText.string(text)
        case (.reference, .reference(let reference)):
            try checkRecordName(reference.recordName, field: field.name, in: recordType)
            return "{\"recordName\":\(JSONText.string(reference.recordName)),\"action\":\"\(reference.action.rawValue)\"}"
        case (.bytes, .bytes(let data)): return JSONText.string(data.base64EncodedString())
        case (.double, .double(let number)), (.number(_), .double(let number)):
            guard number.isFinite else {
                throw RecordError(
                    .invalidArguments, "\(recordType).\(field.name): \(number) cannot be stored in a list", recordType: recordType, field: field.name)
            }
            return String(number)
        case (.list, _): return nil
        default:
            guard let stored = try scalar(value, type: type, field: field, in: recordType, assets: &assets) else { return nil }
            switch stored.storage {
            case .int64(let number): return String(number)
            case .double(let number): return String(number)
            case .string(let text): return text
            default: return nil
            }
        }
    }

    private static func decodeJSON(_ json: Any, type: FieldType) -> Value? {
        switch type {
        case .string: return (json as? String).map(Value.string)
        case .int64: return (json as? NSNumber).map { .int64($0.int64Value) }
        case .double: return (json as? NSNumber).map { .double($0.doubleValue) }
        case .number:
            guard let number = json as? NSNumber else { return nil }
            return number.stringValue.contains(where: { $0 == "." || $0 == "e" }) ? .double(number.doubleValue) : .int64(number.int64Value)
        case .timestamp: return (json as? NSNumber).map { .timestamp(Timestamp.date(milliseconds: $0.int64Value)) }
        case .bytes: return (json as? String).flatMap { Data(base64Encoded: $0) }.map(Value.bytes)
        case .reference:
            guard let object = json as? [String: Any], let name = object["recordName"] as? String else { return nil }
            let action = (object["action"] as? String).flatMap(Reference.Action.init(rawValue:)) ?? .none
            return .reference(Reference(name, action: action))
        case .asset:
            guard let object = json as? [String: Any], let sha256 = object["sha256"] as? String,
                let size = object["size"] as? NSNumber
            else { return nil }
            return .asset(Asset(size: size.intValue, sha256: sha256))
        case .location:
            guard let members = json as? [Any], members.count == 2 || members.count == 3, let latitude = members[0] as? NSNumber,
                let longitude = members[1] as? NSNumber
            else { return nil }
            var location = Location(latitude: latitude.doubleValue, longitude: longitude.doubleValue)
            if members.count == 3, let details = members[2] as? [String: Any] {
                for (name, value) in details {
                    if let detail = Location.Detail(rawValue: name), let number = value as? NSNumber {
                        _ = location.setDetail(detail, to: number.doubleValue)
                    }
                }
            }
            return .location(location)
        case .list(let element):
            guard let items = json as? [Any] else { return nil }
            return .list(items.compactMap { decodeJSON($0, type: element) })
        }
    }

    /// Throws `limitExceeded` when a value of `byteCount` bytes is over ``Limits/maximumValueBytes``.
    private static func checkSize(_ byteCount: Int, of field: FieldDefinition, in recordType: String, what: String) throws(RecordError) {
        guard byteCount > Limits.maximumValueBytes else { return }
        throw RecordError(
            .limitExceeded,
            "\(recordType).\(field.name): the \(what) is \(byteCount) bytes; values hold at most \(Limits.maximumValueBytes) bytes — store larger data as an ASSET",
            recordType: recordType, field: field.name
        )
    }

    /// SQLite's C API (as GRDB binds strings) ends text at a NUL character, so a STRING holding
    /// one could not be read back exactly: it is refused instead.
    static func checkNoNUL(_ text: String, field: String, in recordType: String) throws(RecordError) {
        if text.utf8.contains(0) {
            throw RecordError(
                .invalidArguments,
                "\(recordType).\(field): STRING values cannot contain the NUL character (\\0); remove it or store the data as BYTES",
                recordType: recordType, field: field
            )
        }
    }

    private static func checkRecordName(_ name: String, field: String, in recordType: String) throws(RecordError) {
        if name.isEmpty {
            throw RecordError(.invalidArguments, "\(recordType).\(field): a reference needs a recordName", recordType: recordType, field: field)
        }
    }

    /// A short quoted excerpt of `value` for messages.
    static func preview(_ value: Value) -> String {
        let text = value.description
        return "'" + (text.count > 40 ? text.prefix(40) + "…" : text) + "'"
    }
}
