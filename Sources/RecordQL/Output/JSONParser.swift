/// A recursive-descent parser of JSON text (RFC 8259) over its UTF-8 bytes, bounded in depth.
///
/// Strict, as a server reading requests must be: no control character unescaped in a string,
/// only JSON's escapes, surrogates only in pairs, numbers only in JSON's grammar (no `+1`, `.5`,
/// `01` or `1.`). A string without escapes is made from its bytes in one piece.
struct JSONParser {
    static let maximumDepth = 512

    private let bytes: [UInt8]
    private var index = 0
    /// Where a value began past ``maximumDepth``, if one did.
    private var tooDeepAt: Int?

    init(_ text: String) {
        bytes = Array(text.utf8)
    }

    /// The whole text's value.
    ///
    /// - Throws: ``JSONSyntaxError/unexpected(offset:)`` at the byte where the text stops being
    ///   one JSON value, ``JSONSyntaxError/tooDeep(offset:)`` where it nests past the limit.
    mutating func document() throws(JSONSyntaxError) -> JSONValue {
        guard let value = value(depth: 0) else {
            if let tooDeepAt { throw .tooDeep(offset: tooDeepAt) }
            throw .unexpected(offset: index)
        }
        skipWhitespace()
        guard index == bytes.count else { throw .unexpected(offset: index) }
        return value
    }

    private mutating func value(depth: Int) -> JSONValue? {
        skipWhitespace()
        guard index < bytes.count else { return nil }
        guard depth < Self.maximumDepth else {
            tooDeepAt = index
            return nil
        }
        switch bytes[index] {
        case UInt8(ascii: "{"): return object(depth: depth)
        case UInt8(ascii: "["): return array(depth: depth)
        case UInt8(ascii: "\""): return string().map(JSONValue.string)
        case UInt8(ascii: "t"): return literal("true", .bool(true))
        case UInt8(ascii: "f"): return literal("false", .bool(false))
        case UInt8(ascii: "n"): return literal("null", .null)
        default: return number()
        }
    }

    private mutating func object(depth: Int) -> JSONValue? {
        index += 1
        var members: [JSONValue.Member] = []
        skipWhitespace()
        if consume(UInt8(ascii: "}")) { return .object(members) }
        repeat {
            skipWhitespace()
            guard let key = string() else { return nil }
            skipWhitespace()
            guard consume(UInt8(ascii: ":")), let value = value(depth: depth + 1) else { return nil }
            members.append(JSONValue.Member(key: key, value: value))
            skipWhitespace()
        } while consume(UInt8(ascii: ","))
        return consume(UInt8(ascii: "}")) ? .object(members) : nil
    }

    private mutating func array(depth: Int) -> JSONValue? {
        index += 1
        var elements: [JSONValue] = []
        skipWhitespace()
        if consume(UInt8(ascii: "]")) { return .array(elements) }
        repeat {
            guard let element = value(depth: depth + 1) else { return nil }
            elements.append(element)
            skipWhitespace()
        } while consume(UInt8(ascii: ","))
        return consume(UInt8(ascii: "]")) ? .array(elements) : nil
    }

    private mutating func string() -> String? {
        guard consume(UInt8(ascii: "\"")) else { return nil }
        let start = index
        while index < bytes.count {
            switch bytes[index] {
            case UInt8(ascii: "\""):
                defer { index += 1 }
                return String(decoding: bytes[start..<index], as: UTF8.self)
            case UInt8(ascii: "\\"):
                return escapedString(from: start)
            case 0..<0x20:
                return nil
            default:
                index += 1
            }
        }
        return nil
    }

    /// The rest of a string that has an escape, from `start` (its first byte after the quote).
    private mutating func escapedString(from start: Int) -> String? {
        var text = String(decoding: bytes[start..<index], as: UTF8.self)
        var run = index
        while index < bytes.count {
            switch bytes[index] {
            case UInt8(ascii: "\""):
                text += String(decoding: bytes[run..<index], as: UTF8.self)
                index += 1
                return text
            case UInt8(ascii: "\\"):
                text += String(decoding: bytes[run..<index], as: UTF8.self)
                index += 1
                guard let scalar = escape() else { return nil }
                text.unicodeScalars.append(scalar)
                run = index
            case 0..<0x20:
                return nil
            default:
                index += 1
            }
        }
        return nil
    }

    /// The character of the escape sequence after a backslash (a `\u` surrogate pair joined).
    private mutating func escape() -> Unicode.Scalar? {
        guard index < bytes.count else { return nil }
        let byte = bytes[index]
        index += 1
        switch byte {
        case UInt8(ascii: "\""): return "\""
        case UInt8(ascii: "\\"): return "\\"
        case UInt8(ascii: "/"): return "/"
        case UInt8(ascii: "n"): return "\n"
        case UInt8(ascii: "t"): return "\t"
        case UInt8(ascii: "r"): return "\r"
        case UInt8(ascii: "b"): return "\u{8}"
        case UInt8(ascii: "f"): return "\u{C}"
        case UInt8(ascii: "u"):
            guard let unit = hex4() else { return nil }
            switch unit {
            case 0xD800..<0xDC00:
                guard consume(UInt8(ascii: "\\")), consume(UInt8(ascii: "u")), let low = hex4(), (0xDC00..<0xE000).contains(low) else { return nil }
                return Unicode.Scalar(0x10000 + ((unit - 0xD800) << 10) + (low - 0xDC00))
            case 0xDC00..<0xE000: return nil
            default: return Unicode.Scalar(unit)
            }
        default: return nil
        }
    }

    private mutating func hex4() -> UInt32? {
        guard index + 4 <= bytes.count else { return nil }
        var value: UInt32 = 0
        for byte in bytes[index..<index + 4] {
            let digit: UInt8
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
            default: return nil
            }
            value = value << 4 | UInt32(digit)
        }
        index += 4
        return value
    }

    /// `-? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?`, kept as its text.
    private mutating func number() -> JSONValue? {
        let start = index
        _ = consume(UInt8(ascii: "-"))
        if !consume(UInt8(ascii: "0")) {
            guard digits() else { return nil }
        }
        if consume(UInt8(ascii: ".")) {
            guard digits() else { return nil }
        }
        if consume(UInt8(ascii: "e")) || consume(UInt8(ascii: "E")) {
            if !consume(UInt8(ascii: "+")) { _ = consume(UInt8(ascii: "-")) }
            guard digits() else { return nil }
        }
        return .number(String(decoding: bytes[start..<index], as: UTF8.self))
    }

    /// Consumes one or more decimal digits; false when there is none.
    private mutating func digits() -> Bool {
        let start = index
        while index < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[index]) { index += 1 }
        return index > start
    }

    private mutating func literal(_ word: StaticString, _ value: JSONValue) -> JSONValue? {
        let count = word.utf8CodeUnitCount
        guard index + count <= bytes.count else { return nil }
        let matches = word.withUTF8Buffer { word in bytes[index..<index + count].elementsEqual(word) }
        guard matches else { return nil }
        index += count
        return value
    }

    private mutating func consume(_ byte: UInt8) -> Bool {
        guard index < bytes.count, bytes[index] == byte else { return false }
        index += 1
        return true
    }

    private mutating func skipWhitespace() {
        while index < bytes.count {
            switch bytes[index] {
            case 0x20, 0x0A, 0x0D, 0x09: index += 1
            default: return
            }
        }
    }
}

/// Why a text is not JSON.
public enum JSONSyntaxError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The text stops being one JSON value at this byte (from 0): a character that does not fit
    /// there, a string or a number left unfinished, or anything after the value.
    case unexpected(offset: Int)
    /// A value at this byte (from 0) lies inside more than ``JSONParser/maximumDepth`` arrays
    /// and objects.
    case tooDeep(offset: Int)
    /// The bytes are not UTF-8 text.
    case notUTF8

    public var description: String {
        switch self {
        case .unexpected(let offset): "unexpected text at byte \(offset)"
        case .tooDeep(let offset): "arrays and objects nested deeper than \(JSONParser.maximumDepth) levels at byte \(offset)"
        case .notUTF8: "not UTF-8 text"
        }
    }
}
