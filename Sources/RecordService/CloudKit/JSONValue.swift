import Foundation
import RecordKit

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
    case written(String)

    /// Parses `data`, or throws `BAD_REQUEST` saying it is not JSON.
    static func parse(_ data: Data) throws(CloudKitError) -> JSONValue {
        do {
            return try JSONDecoder().decode(JSONValue.self, from: data)
        } catch {
            throw CloudKitError(.badRequest, "the request body is not valid JSON; send a JSON object such as {\"query\": {\"recordType\": \"Items\"}}")
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

extension JSONValue: Decodable {
    private struct Key: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    /// Reads each value once, the scalar kinds first and strings before the rest, so a string
    /// (the commonest value) is read without a single thrown error. (GraphQLSwift's own
    /// `Map.init(from:)` reads an object twice at every level, 2ⁿ times for `n` objects deep, and
    /// tries other kinds before each object, a thrown error each: the `variables` of a mutation
    /// creating 500 records took longer to decode than to write.)
    init(from decoder: any Decoder) throws {
        let single = try decoder.singleValueContainer()
        if single.decodeNil() {
            self = .null
        } else if let string = try? single.decode(String.self) {
            self = .string(string)
        } else if let flag = try? single.decode(Bool.self) {
            self = .bool(flag)
        } else if let number = try? single.decode(Int64.self) {
            self = .integer(number)
        } else if let number = try? single.decode(Double.self) {
            self = .double(number)
        } else if let object = try? decoder.container(keyedBy: Key.self) {
            var members: [String: JSONValue] = [:]
            members.reserveCapacity(object.allKeys.count)
            for key in object.allKeys {
                members[key.stringValue] = try object.decode(JSONValue.self, forKey: key)
            }
            self = .object(members)
        } else {
            var array = try decoder.unkeyedContainer()
            var elements: [JSONValue] = []
            if let count = array.count { elements.reserveCapacity(count) }
            while !array.isAtEnd {
                elements.append(try array.decode(JSONValue.self))
            }
            self = .array(elements)
        }
    }
}

extension JSONValue {
    /// Compact JSON text, object keys sorted.
    var serialized: String {
        var text = ""
        text.reserveCapacity(1024)
        write(to: &text)
        return text
    }

    /// Appends the compact JSON text of the value to `text`.
    func write(to text: inout String) {
        switch self {
        case .null: text += "null"
        case .bool(let flag): text += flag ? "true" : "false"
        case .integer(let number): text += String(number)
        case .double(let number):
            // Always finite: JSON has no NaN or infinity to parse, and the engine stores none.
            text += String(number)
        case .string(let string): JSONText.append(string, to: &text)
        case .array(let elements):
            text += "["
            for (index, element) in elements.enumerated() {
                if index > 0 { text += "," }
                element.write(to: &text)
            }
            text += "]"
        case .object(let members):
            text += "{"
            for (index, member) in members.sorted(by: { $0.key < $1.key }).enumerated() {
                if index > 0 { text += "," }
                JSONText.append(member.key, to: &text)
                text += ":"
                member.value.write(to: &text)
            }
            text += "}"
        case .written(let json): text += json
        }
    }
}
