import Foundation
import RecordKit

/// Reads a field value typed at the prompt as the value the schema says the field holds.
///
/// | field type | text |
/// |---|---|
/// | STRING | as typed |
/// | INT64, DOUBLE, NUMBER | `2`, `-1.5`, `1e3` |
/// | TIMESTAMP | ISO-8601: `2026-11-21`, `2026-11-21T09:30:00Z` |
/// | BYTES | base64 |
/// | REFERENCE | the recordName referenced (action NONE); `item add`/`item set` resolve names first |
/// | LOCATION | `latitude,longitude` |
/// | ASSET | the path of a file, whose bytes are stored |
/// | LIST<T> | elements separated by commas, or a JSON array (``ListText``) |
enum ValueParser {
    /// The value of `text` for `field` of `recordType`.
    static func value(_ text: String, for field: FieldDefinition, in recordType: String) throws(RecordError) -> Value {
        if case .list(let element) = field.type {
            var values: [Value] = []
            for part in try ListText.elements(text, for: field, in: recordType) {
                values.append(try scalar(part, as: element, field: field, in: recordType))
            }
            return .list(values)
        }
        return try scalar(text, as: field.type, field: field, in: recordType)
    }

    private static func scalar(_ text: String, as type: FieldType, field: FieldDefinition, in recordType: String) throws(RecordError) -> Value {
        let parsed: Value? =
            switch type {
            case .string: .string(text)
            case .int64, .number(preferred: .int64): Int64(text).map(Value.int64)
            case .double, .number(preferred: .double): Double(text).map(Value.double)
            case .number(preferred: nil): Int64(text).map(Value.int64) ?? Double(text).map(Value.double)
            case .timestamp: Timestamp.parse(text).map(Value.timestamp)
            case .bytes: Data(base64Encoded: text).map(Value.bytes)
            case .reference: text.isEmpty ? nil : .reference(Reference(text))
            case .location: location(text).map(Value.location)
            case .asset: FileManager.default.contents(atPath: text).map { .asset(Asset(content: $0)) }
            case .list: nil
            }
        guard let parsed else {
            if [.int64, .number(preferred: .int64)].contains(type), text.wholeMatch(of: /[+-]?[0-9]+/) != nil {
                throw RecordError(
                    .schemaViolation,
                    "\(recordType).\(field.name) is \(field.type), and \(text) is out of INT64's range (\(Int64.min)…\(Int64.max))",
                    recordType: recordType,
                    field: field.name
                )
            }
            throw RecordError(
                .schemaViolation,
                "\(recordType).\(field.name) is \(field.type), and '\(text)' is not \(expectation(for: type, in: field))",
                recordType: recordType,
                field: field.name
            )
        }
        return parsed
    }

    private static func location(_ text: String) -> Location? {
        let parts = text.split(separator: ",").compactMap { Double(String($0).trimmingWhitespace) }
        guard parts.count == 2 else { return nil }
        let location = Location(latitude: parts[0], longitude: parts[1])
        return location.isValid ? location : nil
    }

    /// What a value of `type` looks like, with an example that works typed for `field` (a
    /// LOCATION holds a comma, so a list of them is a JSON array).
    private static func expectation(for type: FieldType, in field: FieldDefinition) -> String {
        switch type {
        case .int64, .number(preferred: .int64): "a whole number (e.g. 2)"
        case .double, .number: "a number (e.g. 2.5)"
        case .timestamp: "an ISO-8601 date (e.g. 2026-11-21 or 2026-11-21T09:30:00Z)"
        case .bytes: "base64 text"
        case .reference: "a recordName"
        case .location where field.type == .list(.location):
            "latitude,longitude; a list of locations is a JSON array of [latitude, longitude] pairs, e.g. \(ListText.example(for: field))"
        case .location: "latitude,longitude (e.g. 48.85,2.35)"
        case .asset: "the path of a readable file"
        case .string, .list: "valid"
        }
    }
}
