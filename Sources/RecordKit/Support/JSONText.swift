import Foundation

/// JSON text for strings, escaped as RFC 8259 requires — for assembling responses around the
/// JSON texts that ``RecordTransaction/json(_:projection:)`` returns.
public enum JSONText {
    /// `text` as a JSON string literal.
    public static func string(_ text: String) -> String {
        guard needsEscapes(text) else { return "\"" + text + "\"" }
        var text = text
        return text.withUTF8(escaped)
    }

    /// The UTF-8 text `utf8` as a JSON string literal, written byte by byte: every byte JSON
    /// escapes is ASCII, and no byte of a multi-byte character is.
    private static func escaped(_ utf8: UnsafeBufferPointer<UInt8>) -> String {
        let backslash = UInt8(ascii: "\\")
        let hexDigits = Array("0123456789abcdef".utf8)
        var bytes: [UInt8] = [UInt8(ascii: "\"")]
        bytes.reserveCapacity(utf8.count + 16)
        for byte in utf8 {
            if let letter = shortEscape(byte) {
                bytes.append(backslash)
                bytes.append(letter)
            } else if byte < 0x20 {
                bytes.append(contentsOf: [backslash, UInt8(ascii: "u"), UInt8(ascii: "0"), UInt8(ascii: "0")])
                bytes.append(contentsOf: [hexDigits[Int(byte >> 4)], hexDigits[Int(byte & 0xF)]])
            } else {
                bytes.append(byte)
            }
        }
        bytes.append(UInt8(ascii: "\""))
        return String(decoding: bytes, as: UTF8.self)
    }

    /// The letter after the backslash of the two-character escape of `byte`, if it has one.
    private static func shortEscape(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"): byte
        case UInt8(ascii: "\n"): UInt8(ascii: "n")
        case UInt8(ascii: "\r"): UInt8(ascii: "r")
        case UInt8(ascii: "\t"): UInt8(ascii: "t")
        default: nil
        }
    }

    /// `texts` as a JSON array of string literals: how a list of names is bound as one parameter
    /// for SQLite's `json_each`.
    public static func array(_ texts: some Sequence<String>) -> String {
        "[" + texts.map(string).joined(separator: ",") + "]"
    }

    /// Appends `text` as a JSON string literal to `output`: in place, without an intermediate
    /// string, when it needs no escapes (the common case).
    public static func append(_ text: String, to output: inout String) {
        guard !needsEscapes(text) else {
            output += string(text)
            return
        }
        output += "\""
        output += text
        output += "\""
    }

    /// Whether `text` holds a byte JSON must escape: a control character, a quote or a backslash.
    /// It scans the string's contiguous UTF-8 storage (walking its `utf8` view through the
    /// collection protocols cost several times more).
    private static func needsEscapes(_ text: String) -> Bool {
        var text = text
        return text.withUTF8(needsEscapes)
    }

    /// Whether the UTF-8 text `utf8` holds a byte JSON must escape.
    public static func needsEscapes(_ utf8: UnsafeBufferPointer<UInt8>) -> Bool {
        utf8.contains { $0 < 0x20 || $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "\\") }
    }
}
