import Foundation
import RecordKit

/// CloudKit's field value dictionary, `{"value": …, "type"?: …}`, read against the field's
/// schema type and written with CloudKit's type tag. A request with `numbersAsStrings` may give
/// a number as a string of it, and gets INT64, DOUBLE and NUMBER values back as strings.
///
/// | type | JSON `value` |
/// |---|---|
/// | STRING | string |
/// | INT64, DOUBLE, NUMBER | number (booleans are INT64 1 and 0, as CloudKit stores them) |
/// | TIMESTAMP | milliseconds since 1970, fractions allowed (kept to the millisecond) |
/// | BYTES | base64 string |
/// | REFERENCE | `{"recordName", "action"?: "NONE"|"DELETE_SELF", "zoneID"?}` |
/// | LOCATION | `{"latitude", "longitude", …}` with CloudKit's `altitude`, `horizontalAccuracy`, `verticalAccuracy`, `speed`, `course` and `timestamp` (ms) when given, kept |
/// | ASSET | `{"fileChecksum", "size", "receipt"?, "downloadURL"?}` |
/// | LIST<T> | array of T's values |
enum CloudKitFieldValue {
    /// How a request's ASSET values find their content: the bytes uploaded under a receipt.
    typealias UploadLookup = (_ receipt: String) -> Data?

    /// The value of the field dictionary `json` for a field of `type`; `where` names the field
    /// in reasons (`Items.number`). A `type` tag, when given, must fit the field. With
    /// `numbersAsStrings` (the request's), a number field takes its value as a string too.
    static func decode(
        _ json: JSONValue, as type: FieldType, where name: String, numbersAsStrings: Bool = false, uploads: UploadLookup = { _ in nil }
    ) throws(CloudKitError) -> Value {
        guard case .object = json, let value = json["value"] else {
            throw CloudKitError(.badRequest, "\(name) must be a field value dictionary such as {\"value\": …}, not \(json.kindName)")
        }
        if let tag = json["type"] {
            guard case .string(let text) = tag, CloudKitTypeTag.tag(text, fits: type) else {
                throw CloudKitError(.badRequest, "\(name) is \(type) but its value is tagged \(tag.serialized); leave the type out or give the field's type")
            }
        }
        return try decodeValue(value, as: type, where: name, numbersAsStrings: numbersAsStrings, uploads: uploads)
    }

    /// The value of a bare JSON `value` (no dictionary around it) for a field of `type`.
    static func decodeValue(
        _ value: JSONValue, as type: FieldType, where name: String, numbersAsStrings: Bool = false, uploads: UploadLookup = { _ in nil }
    ) throws(CloudKitError) -> Value {
        if case .list(let element) = type {
            guard case .array(let elements) = value else { throw mismatch(name, type, value) }
            var values: [Value] = []
            for (index, item) in elements.enumerated() {
                values.append(try scalar(item, as: element, where: "\(name)[\(index)]", numbersAsStrings: numbersAsStrings, uploads: uploads))
            }
            return .list(values)
        }
        return try scalar(value, as: type, where: name, numbersAsStrings: numbersAsStrings, uploads: uploads)
    }

    private static func scalar(
        _ value: JSONValue, as type: FieldType, where name: String, numbersAsStrings: Bool, uploads: UploadLookup
    ) throws(CloudKitError) -> Value {
        if numbersAsStrings, case .string(let text) = value, let number = numberWritten(as: text, for: type) {
            return try scalar(number, as: type, where: name, numbersAsStrings: false, uploads: uploads)
        }
        switch (type, value) {
        case (.string, .string(let text)):
            return .string(text)
        case (.int64, .integer(let number)), (.number, .integer(let number)):
            return .int64(number)
        case (.int64, .bool(let flag)), (.number, .bool(let flag)):
            return .int64(flag ? 1 : 0)
        case (.int64, .double(let number)) where number.rounded() == number && abs(number) < 9.2e18:
            return .int64(Int64(number))
        case (.double, _), (.number, .double):
            guard let number = value.number else { throw mismatch(name, type, value) }
            return .double(number)
        case (.timestamp, _):
            guard let milliseconds = value.number, abs(milliseconds) < 8.64e18 else { throw mismatch(name, type, value) }
            return .timestamp(Date(timeIntervalSince1970: milliseconds / 1000))
        case (.bytes, .string(let text)):
            guard let data = Data(base64Encoded: text) else {
                throw CloudKitError(.badRequest, "\(name) is BYTES; its value must be base64 text")
            }
            return .bytes(data)
        case (.reference, .object):
            return .reference(try reference(value, where: name))
        case (.location, .object):
            guard let latitude = value["latitude"]?.number, let longitude = value["longitude"]?.number else {
                throw CloudKitError(.badRequest, "\(name) is LOCATION; its value needs numeric latitude and longitude")
            }
            var location = Location(latitude: latitude, longitude: longitude)
            guard location.isValid else {
                throw CloudKitError(.badRequest, "\(name): latitude must be within ±90 and longitude within ±180")
            }
            for detail in Location.Detail.allCases {
                guard let given = value[detail.rawValue] else { continue }
                guard let number = given.number, location.setDetail(detail, to: number) else {
                    throw CloudKitError(
                        .badRequest,
                        "\(name): the location's \(detail.rawValue) must be a finite number" + (detail.isTime ? " of milliseconds since 1970" : "")
                            + ", not \(preview(given))")
                }
            }
            return .location(location)
        case (.asset, .object):
            return .asset(try asset(value, where: name, uploads: uploads))
        default:
            throw mismatch(name, type, value)
        }
    }

    /// The number `text` holds, in JSON's notation, for a field of a number type (INT64, DOUBLE,
    /// NUMBER, TIMESTAMP): a client asking `numbersAsStrings` sends its numbers as it reads
    /// them, as strings. `nil` for any other text or type (refused as the string it is).
    private static func numberWritten(as text: String, for type: FieldType) -> JSONValue? {
        switch type {
        case .int64, .double, .number, .timestamp: break
        default: return nil
        }
        // JSON's grammar, without the whitespace it allows around a value.
        let digits: ClosedRange<Character> = "0"..."9"
        guard text.utf8.count <= 32, let first = text.first, let last = text.last, first == "-" || digits.contains(first), digits.contains(last),
            let number = try? JSONValue.parse(Data(text.utf8))
        else { return nil }
        switch number {
        case .integer, .double: return number
        default: return nil
        }
    }

    /// A reference dictionary: `recordName`, `action` (`NONE` when absent), `zoneID` (a
    /// reference points into its record's zone).
    static func reference(_ value: JSONValue, where name: String) throws(CloudKitError) -> Reference {
        guard case .string(let recordName)? = value["recordName"] else {
            throw CloudKitError(.badRequest, "\(name) is REFERENCE; its value needs a recordName string")
        }
        // A reference points into its record's zone; a zoneID given must at least be one.
        _ = try CloudKitZone.name(value["zoneID"])
        switch value["action"] {
        case nil, .string("NONE")?: return Reference(recordName, action: .none)
        case .string("DELETE_SELF")?: return Reference(recordName, action: .deleteSelf)
        case let action?:
            throw CloudKitError(.badRequest, "\(name): reference action \(action.serialized) is not one of NONE, DELETE_SELF")
        }
    }

    private static func asset(_ value: JSONValue, where name: String, uploads: UploadLookup) throws(CloudKitError) -> Asset {
        if case .string(let receipt)? = value["receipt"] {
            guard let content = uploads(receipt) else {
                throw CloudKitError(
                    .badRequest,
                    "\(name): no upload has receipt \(receipt.debugDescription); upload the file to a URL from assets/upload first (receipts last 15 minutes)")
            }
            return Asset(content: content)
        }
        guard case .string(let checksum)? = value["fileChecksum"], case .integer(let size)? = value["size"] else {
            throw CloudKitError(.badRequest, "\(name) is ASSET; its value needs the receipt of an upload, or the fileChecksum and size of a stored asset")
        }
        return Asset(size: Int(size), sha256: checksum)
    }

    private static func mismatch(_ name: String, _ type: FieldType, _ value: JSONValue) -> CloudKitError {
        CloudKitError(.badRequest, "\(name) is \(type) but its value is \(value.kindName) (\(preview(value))); \(expectation(type))")
    }

    private static func preview(_ value: JSONValue) -> String {
        let text = value.serialized
        return text.count > 40 ? String(text.prefix(40)) + "…" : text
    }

    private static func expectation(_ type: FieldType) -> String {
        switch type {
        case .string: "give a string"
        case .int64: "give a whole number within INT64's range (±9,223,372,036,854,775,807)"
        case .double, .number: "give a number"
        case .timestamp: "give milliseconds since 1970"
        case .bytes: "give base64 text"
        case .reference: "give {\"recordName\": …, \"action\": \"NONE\"}"
        case .location: "give {\"latitude\": …, \"longitude\": …}"
        case .asset: "give the dictionary an upload returned"
        case .list: "give an array"
        }
    }
}

extension CloudKitFieldValue {
    /// Writes the field dictionary of `value`, stored in a field of `type`, as a response carries
    /// it (`{"type": …, "value": …}`, keys sorted as ``JSONValue/serialized`` sorts them);
    /// `numbersAsStrings` writes INT64 and DOUBLE values (NUMBER's too) as strings of the same
    /// digits. `assetURL` gives the download URL of an asset.
    static func write(_ value: Value, type: FieldType, numbersAsStrings: Bool = false, assetURL: (Asset) -> String, to json: inout JSONBuffer) {
        json.raw("{\"type\":")
        json.string(CloudKitTypeTag.tag(for: type, value: value))
        json.raw(",\"value\":")
        writeValue(value, numbersAsStrings: numbersAsStrings, assetURL: assetURL, to: &json)
        json.raw("}")
    }

    private static func writeValue(_ value: Value, numbersAsStrings: Bool, assetURL: (Asset) -> String, to json: inout JSONBuffer) {
        switch value {
        case .string(let string): json.string(string)
        case .int64(let number) where numbersAsStrings: json.string(String(number))
        case .int64(let number): json.number(number)
        case .double(let number) where numbersAsStrings: json.string(String(number))
        case .double(let number): json.number(number)
        case .timestamp(let date): json.number(Timestamp.milliseconds(date))
        case .bytes(let data): json.string(data.base64EncodedString())
        case .reference(let reference):
            json.raw("{\"action\":")
            json.string(reference.action.rawValue)
            json.raw(",\"recordName\":")
            json.string(reference.recordName)
            json.raw("}")
        case .location(let location):
            json.raw("{\"latitude\":")
            json.number(location.latitude)
            json.raw(",\"longitude\":")
            json.number(location.longitude)
            for (detail, value) in location.details {
                json.raw(",")
                json.string(detail.rawValue)
                json.raw(":")
                if detail.isTime { json.number(Int64(value)) } else { json.number(value) }
            }
            json.raw("}")
        case .asset(let asset):
            json.raw("{\"downloadURL\":")
            json.string(assetURL(asset))
            json.raw(",\"fileChecksum\":")
            json.string(asset.sha256)
            json.raw(",\"size\":")
            json.number(Int64(asset.size))
            json.raw("}")
        case .list(let values):
            json.raw("[")
            for (index, element) in values.enumerated() {
                if index > 0 { json.raw(",") }
                writeValue(element, numbersAsStrings: numbersAsStrings, assetURL: assetURL, to: &json)
            }
            json.raw("]")
        }
    }
}

extension CloudKitFieldValue {
    /// The type of a new field whose first value is `json` (development's just-in-time schema):
    /// the `type` tag when given, otherwise what the value looks like — text is STRING,
    /// integers INT64, other numbers DOUBLE, `{recordName}` REFERENCE, `{latitude, longitude}`
    /// LOCATION, an upload's dictionary ASSET, arrays a LIST of their first element's type.
    static func inferredType(of json: JSONValue) -> FieldType? {
        if case .string(let tag)? = json["type"] { return CloudKitTypeTag.fieldType(named: tag) }
        return json["value"].flatMap(inferredValueType)
    }

    private static func inferredValueType(_ value: JSONValue) -> FieldType? {
        switch value {
        case .string: return .string
        case .integer, .bool: return .int64
        case .double: return .double
        case .object:
            if value["recordName"] != nil { return .reference }
            if value["latitude"] != nil && value["longitude"] != nil { return .location }
            if value["receipt"] != nil || value["fileChecksum"] != nil { return .asset }
            return nil
        case .array(let elements):
            guard let first = elements.first, let element = inferredValueType(first), element.elementType == nil else { return nil }
            return .list(element)
        case .null, .written: return nil
        }
    }
}
