import Foundation
import RecordKit
import RecordQL

/// A JSON document decoded without a schema: CloudKit's field values are untagged, so a request
/// is read whole first and its values typed afterwards, against the record type's fields.
///
/// Integers keep all 64 bits (`integer`); other numbers are `double`. Objects keep their keys
/// unordered; ``serialized`` writes them sorted, so equal documents are equal texts.
enum JSONValue: Sendable, Hashable {
    case null
    case bool(Bool)
    case integer(Int64)
    case double(Double)
    case string(String)
    case array([JSONValue])
    case object([String: JSONValue])
    /// JSON text written already, with its object keys sorted (a record ``CloudKitRecord`` wrote
    /// straight from the engine's values, without a tree of dictionaries to sort): written out
    /// as it is. Parsing never makes one, and it has no members to look up.
    case written([UInt8])

    /// Parses `data`, or throws `BAD_REQUEST` saying it is not JSON.
    static func parse(_ data: Data) throws(CloudKitError) -> JSONValue {
        do {
            return try JSONValue(parsing: data)
        } catch {
            throw CloudKitError(
                .badRequest, "the request body is not JSON (\(error)); send a JSON object such as {\"query\": {\"recordType\": \"Items\"}}")
        }
    }

    /// The member `key` of an object; `nil` for other values, a missing key or an explicit `null`.
    subscript(key: String) -> JSONValue? {
        guard case .object(let members) = self, let member = members[key], member != .null else { return nil }
        return member
    }

    /// A short name of the value's kind, for "expected X, got Y" reasons.
    var kindName: String {
        switch self {
        case .null: "null"
        case .bool: "a boolean"
        case .integer, .double: "a number"
        case .string: "a string"
        case .array: "an array"
        case .object: "an object"
        case .written: "JSON text"
        }
    }

    /// The number, for an integer or a double.
    var number: Double? {
        switch self {
        case .integer(let number): Double(number)
        case .double(let number): number
        default: nil
        }
    }
}

extension JSONValue {
    /// The JSON text in the UTF-8 bytes `data`, parsed by the query language's strict parser
    /// (``RecordQL/JSONValue/parse(utf8:)``), then its numbers typed. A number is an `integer`
    /// when it has an integral value that fits in 64 bits (`1.0` and `1e2` too, as Foundation's
    /// decoder reads them), a `double` otherwise.
    ///
    /// - Throws: ``JSONSyntaxError`` naming where the bytes stop being JSON.
    init(parsing data: some DataProtocol) throws(JSONSyntaxError) {
        self.init(try RecordQL.JSONValue.parse(utf8: data))
    }

    /// The JSON text `text`, as ``init(parsing:)-(DataProtocol)`` reads bytes.
    init(parsing text: String) throws(JSONSyntaxError) {
        self.init(try RecordQL.JSONValue.parse(text))
    }

    private init(_ parsed: RecordQL.JSONValue) {
        switch parsed {
        case .null: self = .null
        case .bool(let flag): self = .bool(flag)
        case .string(let string): self = .string(string)
        case .number(let text): self = Self.number(text)
        case .array(let elements): self = .array(elements.map(JSONValue.init))
        case .object(let members):
            var object: [String: JSONValue] = [:]
            object.reserveCapacity(members.count)
            for member in members { object[member.key] = JSONValue(member.value) }
            self = .object(object)
        }
    }

    private static func number(_ text: String) -> JSONValue {
        if let integer = Int64(text) { return .integer(integer) }
        let number = Double(text) ?? .nan
        if number.rounded() == number, number >= -0x1p63, number < 0x1p63 { return .integer(Int64(number)) }
        return .double(number)
    }
}

extension JSONValue {
    /// Compact JSON text, object keys sorted.
    var serialized: String {
        buffer.text
    }

    /// The compact JSON text of the value, object keys sorted, in a buffer.
    var buffer: JSONBuffer {
        var json = JSONBuffer()
        write(to: &json)
        return json
    }

    /// Appends the compact JSON text of the value to `json`.
    func write(to json: inout JSONBuffer) {
        switch self {
        case .null: json.raw("null")
        case .bool(let flag): json.bool(flag)
        case .integer(let number): json.number(number)
        case .double(let number): json.number(number)
        case .string(let string): json.string(string)
        case .array(let elements):
            json.raw("[")
            for (index, element) in elements.enumerated() {
                if index > 0 { json.raw(",") }
                element.write(to: &json)
            }
            json.raw("]")
        case .object(let members):
            json.raw("{")
            for (index, member) in members.sorted(by: { $0.key < $1.key }).enumerated() {
                if index > 0 { json.raw(",") }
                json.string(member.key)
                json.raw(":")
                member.value.write(to: &json)
            }
            json.raw("}")
        case .written(let text): json.raw(text)
        }
    }
}

extension JSONValue {
    /// A request's array of names at `key` as a set, `nil` when absent; `what` says what the
    /// names are in the error refusing anything but an array of strings.
    static func names(_ json: JSONValue?, key: String, naming what: String) throws(CloudKitError) -> Set<String>? {
        guard let json else { return nil }
        guard case .array(let elements) = json else {
            throw CloudKitError(.badRequest, "\(key) must be an array of \(what), not \(json.kindName)")
        }
        var names = Set<String>()
        for element in elements {
            guard case .string(let name) = element else {
                throw CloudKitError(.badRequest, "\(key) must hold \(what) (strings), not \(element.kindName)")
            }
            names.insert(name)
        }
        return names
    }
}

extension JSONValue {
    /// A request's boolean at `key` (`path.ascending`, `atomic`), `nil` when absent; anything but
    /// `true` or `false` is refused naming it.
    static func flag(_ json: JSONValue?, key: String) throws(CloudKitError) -> Bool? {
        switch json {
        case nil: return nil
        case .bool(let flag)?: return flag
        case let other?: throw CloudKitError(.badRequest, "\(key) must be true or false, not \(other.kindName)")
        }
    }
}
