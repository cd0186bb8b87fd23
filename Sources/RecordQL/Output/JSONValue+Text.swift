public import RecordKit

extension JSONValue {
    /// An object with `pairs` as its members, in the order given.
    public static func members(_ pairs: KeyValuePairs<String, JSONValue>) -> JSONValue {
        .object(pairs.map { Member(key: $0.key, value: $0.value) })
    }

    /// A number.
    public static func number(_ value: some BinaryInteger) -> JSONValue {
        .number(String(value))
    }

    /// A number, or `null` for NaN and the infinities, which JSON cannot write.
    public static func number(_ value: Double) -> JSONValue {
        value.isFinite ? .number(String(value)) : .null
    }

    /// A LOCATION as the query language writes it: `{latitude, longitude}`, then the members
    /// present beside them (``RecordKit/Location/details``; a time as ISO-8601 text).
    public static func location(_ location: Location) -> JSONValue {
        var members = [Member(key: "latitude", value: .number(location.latitude)), Member(key: "longitude", value: .number(location.longitude))]
        for (detail, value) in location.details {
            let json: JSONValue = detail.isTime ? .string(Timestamp.format(Timestamp.date(milliseconds: Int64(value)))) : .number(value)
            members.append(Member(key: detail.rawValue, value: json))
        }
        return .object(members)
    }

    /// The value as compact JSON text on one line, object members in their order.
    public var text: String {
        switch self {
        case .null: return "null"
        case .bool(let flag): return flag ? "true" : "false"
        case .number(let text): return text
        case .string(let text): return JSONText.string(text)
        case .array(let elements): return "[" + elements.map(\.text).joined(separator: ",") + "]"
        case .object(let members):
            return "{" + members.map { JSONText.string($0.key) + ":" + $0.value.text }.joined(separator: ",") + "}"
        }
    }
}
