import GraphQL
import RecordKit

/// Writes compact JSON text: strings escaped as RFC 8259 requires (RecordKit's ``JSONText``),
/// and GraphQLSwift `Map` values (introspection results) with their keys in order.
enum JSONWriter {
    /// `text` as a JSON string literal.
    static func string(_ text: String) -> String {
        JSONText.string(text)
    }

    /// `map` as JSON; `undefined` members are left out and an `undefined` value is `null`.
    static func json(_ map: Map) -> String {
        switch map {
        case .undefined, .null: return "null"
        case .bool(let value): return value ? "true" : "false"
        case .number(let number): return json(number)
        case .string(let text): return string(text)
        case .array(let items): return "[" + items.map(json).joined(separator: ",") + "]"
        case .dictionary(let members):
            let pairs = members.filter { $0.value != .undefined }.map { string($0.key) + ":" + json($0.value) }
            return "{" + pairs.joined(separator: ",") + "}"
        }
    }

    private static func json(_ number: Number) -> String {
        switch number.storageType {
        case .bool: return number.boolValue ? "true" : "false"
        case .int: return String(number.int64Value)
        case .unknown where Int64(number.stringValue) != nil: return number.stringValue
        case .double, .unknown:
            let value = number.doubleValue
            guard value.isFinite else { return "null" }
            if value == value.rounded(), abs(value) < 1e15 { return String(Int64(value)) }
            return String(value)
        }
    }
}
