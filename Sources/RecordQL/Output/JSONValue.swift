/// A parsed JSON value whose objects keep their members in the order written (the order of a
/// GraphQL selection), for rendering responses and building JSON output. Numbers keep their text.
public enum JSONValue: Hashable, Sendable {
    case null
    case bool(Bool)
    case number(String)
    case string(String)
    case array([JSONValue])
    case object([Member])

    /// One `"key": value` of an object.
    public struct Member: Hashable, Sendable {
        public var key: String
        public var value: JSONValue

        public init(key: String, value: JSONValue) {
            self.key = key
            self.value = value
        }
    }

    /// The value of member `key` of an object.
    public subscript(key: String) -> JSONValue? {
        guard case .object(let members) = self else { return nil }
        return members.first { $0.key == key }?.value
    }

    /// The JSON text `text`, or `nil` when it is not valid JSON (RFC 8259: ``JSONParser``).
    public init?(parsing text: String) {
        guard let value = try? Self.parse(text) else { return nil }
        self = value
    }

    /// The JSON text `text` (RFC 8259: ``JSONParser``).
    ///
    /// - Throws: ``JSONSyntaxError`` naming the byte where `text` stops being JSON.
    public static func parse(_ text: String) throws(JSONSyntaxError) -> JSONValue {
        var parser = JSONParser(text)
        return try parser.document()
    }

    /// The JSON text in the UTF-8 bytes `data`.
    ///
    /// - Throws: ``JSONSyntaxError`` for bytes that are not UTF-8, or naming the byte where the
    ///   text stops being JSON.
    public static func parse(utf8 data: some Collection<UInt8>) throws(JSONSyntaxError) -> JSONValue {
        guard let text = String(validating: data, as: UTF8.self) else { throw .notUTF8 }
        return try parse(text)
    }
}
