import Foundation
import RecordKit
import RecordQL

/// Field values in import and export files (``TransferFormat``): as JSON in the form of the
/// query language's `fields:` input, which the import reads back through the same translator
/// a `createT` mutation uses, so both agree on every type.
enum TransferValue {
    /// `value` as JSON; ASSET content read with `assetContent` (by SHA-256).
    static func json(_ value: RecordKit.Value, assetContent: (String) throws -> Data?) throws -> JSONValue {
        switch value {
        case .string(let text): return .string(text)
        case .int64(let number): return .number(String(number))
        case .double(let number): return .number(String(number))
        case .timestamp(let date): return .string(Timestamp.format(date))
        case .bytes(let data): return .string(data.base64EncodedString())
        case .reference(let reference):
            return .object([.init(key: "recordName", value: .string(reference.recordName)), .init(key: "action", value: .string(reference.action.rawValue))])
        case .location(let location):
            return .location(location)
        case .asset(let asset):
            guard let content = try asset.content ?? assetContent(asset.sha256) else {
                throw RecordError(.internalError, "the content of asset \(asset.sha256) is missing from the database")
            }
            return .string(content.base64EncodedString())
        case .list(let values):
            return .array(try values.map { try json($0, assetContent: assetContent) })
        }
    }

    /// `value` as the text of a CSV cell: the value itself for scalars, JSON for the others.
    static func cell(_ value: JSONValue) -> String {
        switch value {
        case .string(let text): text
        case .number(let text): text
        default: value.text
        }
    }

    /// The JSON a CSV cell of a field of `type` stands for.
    static func json(cell: String, type: FieldType) throws(TransferError) -> JSONValue {
        switch type {
        case .string, .timestamp, .bytes, .asset:
            return .string(cell)
        case .int64, .double, .number:
            guard Double(cell) != nil else { throw TransferError("'\(cell.prefix(40))' is not a number; write it as, say, \(example(of: type))") }
            return .number(cell)
        case .reference, .location, .list:
            guard let json = JSONValue(parsing: cell) else {
                throw TransferError("'\(cell.prefix(40))' is not the JSON of a \(type) value; write it as, say, \(example(of: type))")
            }
            return json
        }
    }

    /// A value of `type` as a CSV cell writes it (the value itself for scalars, JSON for the
    /// others), for an error to show: the values of the REPL's examples (`ValueParser`), in the
    /// file's forms.
    static func example(of type: FieldType) -> String {
        switch type {
        case .string: "text"
        case .int64, .number: "2"
        case .double: "2.5"
        case .timestamp: "2026-11-21T09:30:00Z"
        case .bytes, .asset: "aGk="
        case .reference: #"{"recordName":"L1","action":"DELETE_SELF"}"#
        case .location: #"{"latitude":48.85,"longitude":2.35}"#
        case .list(let element): "[\(jsonExample(of: element))]"
        }
    }

    /// A value of `type` as JSON (a list's members, a JSON Lines field).
    private static func jsonExample(of type: FieldType) -> String {
        switch type {
        case .string, .timestamp, .bytes, .asset: JSONValue.string(example(of: type)).text
        default: example(of: type)
        }
    }
}

/// What is wrong with one row of an import file (located by ``ImportFile``).
struct TransferError: Error {
    let reason: String

    init(_ reason: String) {
        self.reason = reason
    }
}
