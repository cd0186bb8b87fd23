import Foundation

/// JSON text for strings, escaped as RFC 8259 requires — for assembling responses around the
/// JSON texts that ``RecordTransaction/json(_:projection:)`` returns.
public enum JSONText {
    /// `text` as a JSON string literal.
    public static func string(_ text: String) -> String {
        if !needsEscapes(text) {
            return "\"" + text + "\""
        }
        var result = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": result += "\\\""
            case "\\": result += "\\\\"
            case "\n": result += "\\n"
            case "\r": result += "\\r"
            case "\t": result += "\\t"
            case _ where scalar.value < 0x20: result += String(format: "\\u%04x", scalar.value)
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result + "\""
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
