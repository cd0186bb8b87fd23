import GraphQL

/// Writes compact JSON text: strings escaped as RFC 8259 requires, and GraphQLSwift `Map`
/// values (introspection results) with their keys in order.
enum JSONWriter {
    /// `text` as a JSON string literal.
    static func string(_ text: String) -> String {
        var out = "\""
        out.reserveCapacity(text.utf8.count + 2)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case _ where scalar.value < 0x20:
                let hex = String(scalar.value, radix: 16)
                out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out + "\""
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
