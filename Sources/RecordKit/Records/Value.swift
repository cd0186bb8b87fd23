public import Foundation

/// A field value, one case per ``FieldType``. An absent field has no value at all (it is not in
/// ``Record/fields``), as in CloudKit.
public enum Value: Sendable, Hashable, Codable, CustomStringConvertible {
    case string(String)
    case int64(Int64)
    case double(Double)
    /// Milliseconds precision, as CloudKit keeps timestamps.
    case timestamp(Date)
    case bytes(Data)
    case reference(Reference)
    case asset(Asset)
    case location(Location)
    case list([Value])

    /// A short human form, used in messages and the REPL.
    public var description: String {
        switch self {
        case .string(let text): text
        case .int64(let number): String(number)
        case .double(let number): String(number)
        case .timestamp(let date): Timestamp.format(date)
        case .bytes(let data): data.base64EncodedString()
        case .reference(let reference): reference.description
        case .asset(let asset): asset.description
        case .location(let location): location.description
        case .list(let values): "[" + values.map(\.description).joined(separator: ", ") + "]"
        }
    }

    /// The name of the value's kind, for "expected X, got Y" messages.
    public var kindName: String {
        switch self {
        case .string: "STRING"
        case .int64: "INT64"
        case .double: "DOUBLE"
        case .timestamp: "TIMESTAMP"
        case .bytes: "BYTES"
        case .reference: "REFERENCE"
        case .asset: "ASSET"
        case .location: "LOCATION"
        case .list(let values): values.first.map { "LIST<\($0.kindName)>" } ?? "LIST"
        }
    }

    /// The text, if this is a string.
    public var stringValue: String? {
        if case .string(let text) = self { return text }
        return nil
    }

    /// The integer, if this is an INT64.
    public var int64Value: Int64? {
        if case .int64(let number) = self { return number }
        return nil
    }

    /// The reference, if this is one.
    public var referenceValue: Reference? {
        if case .reference(let reference) = self { return reference }
        return nil
    }
}
