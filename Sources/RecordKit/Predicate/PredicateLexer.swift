/// Splits NSPredicate-format text into ``PredicateToken``s, one at a time, for
/// ``PredicateParser``.
///
/// It works on the UTF-8 bytes of the text: every delimiter of the language is ASCII, so the
/// bytes between delimiters (the inside of a string literal) are copied as they are and keep
/// their exact Unicode scalars. Every read is bounds-checked (`peek`).
struct PredicateLexer {
    private let text: String
    private let bytes: [UInt8]
    private var position = 0

    init(_ text: String) {
        self.text = text
        bytes = Array(text.utf8)
    }

    /// The next token; `.end` at the end of the text, and again on every later call.
    mutating func next() throws(RecordError) -> PredicateToken {
        skipWhitespace()
        let start = position
        guard let byte = peek() else { return PredicateToken(kind: .end, offset: start, lexeme: "") }
        let kind: PredicateToken.Kind
        switch byte {
        case Byte.singleQuote, Byte.doubleQuote:
            kind = .string(try readString(quote: byte))
        case Byte.hash:
            position += 1
            guard let next = peek(), Byte.isIdentifierStart(next) else {
                throw error("expected a field name after '#', found \(describeCharacter(at: position))", at: position)
            }
            kind = .identifier(readName(), escaped: true)
        case _ where Byte.isIdentifierStart(byte):
            kind = readIdentifierOrFunction()
        case _ where Byte.isDigit(byte) || (byte == Byte.minus && Byte.isDigit(peek(1))):
            kind = try readNumber()
        default:
            kind = try readSymbol(byte)
        }
        return PredicateToken(kind: kind, offset: start, lexeme: lexeme(from: start))
    }

    /// An error located at the UTF-8 offset `offset`.
    func error(_ message: String, at offset: Int, code: RecordError.Code = .invalidArguments) -> RecordError {
        RecordError(code, message, location: location(at: offset))
    }

    /// Line, column (in characters) and line text of the UTF-8 offset `offset`.
    func location(at offset: Int) -> SourceLocation {
        let index = text.utf8.index(text.startIndex, offsetBy: min(max(offset, 0), bytes.count))
        return SourceLocation(offset: index, in: text)
    }

    // MARK: - Reading

    private func peek(_ ahead: Int = 0) -> UInt8? {
        let index = position + ahead
        return index < bytes.count ? bytes[index] : nil
    }

    private mutating func skipWhitespace() {
        while let byte = peek(), Byte.isWhitespace(byte) { position += 1 }
    }

    private mutating func readName() -> String {
        let start = position
        while let byte = peek(), Byte.isIdentifierPart(byte) { position += 1 }
        return String(decoding: bytes[start..<position], as: UTF8.self)
    }

    /// `name`, or a selector `part:part:` when a colon follows the name directly.
    private mutating func readIdentifierOrFunction() -> PredicateToken.Kind {
        var name = readName()
        guard peek() == Byte.colon else { return .identifier(name, escaped: false) }
        while peek() == Byte.colon {
            position += 1
            name += ":"
            guard let next = peek(), Byte.isIdentifierStart(next) else { break }
            name += readName()
        }
        return .function(name)
    }

    /// The operator or punctuation starting with `byte`, the byte at the current position.
    private mutating func readSymbol(_ byte: UInt8) throws(RecordError) -> PredicateToken.Kind {
        let start = position
        position += 1
        switch byte {
        case UInt8(ascii: "("): return .symbol(.leftParen)
        case UInt8(ascii: ")"): return .symbol(.rightParen)
        case UInt8(ascii: "{"): return .symbol(.leftBrace)
        case UInt8(ascii: "}"): return .symbol(.rightBrace)
        case UInt8(ascii: "["): return .symbol(.leftBracket)
        case UInt8(ascii: "]"): return .symbol(.rightBracket)
        case UInt8(ascii: ","): return .symbol(.comma)
        case UInt8(ascii: "="):
            if consume("<") { return .comparison(.lessOrEqual) }
            if consume(">") { return .comparison(.greaterOrEqual) }
            _ = consume("=")
            return .comparison(.equal)
        case UInt8(ascii: "!"):
            return consume("=") ? .comparison(.notEqual) : .symbol(.not)
        case UInt8(ascii: "<"):
            if consume("=") { return .comparison(.lessOrEqual) }
            return .comparison(consume(">") ? .notEqual : .less)
        case UInt8(ascii: ">"):
            return .comparison(consume("=") ? .greaterOrEqual : .greater)
        case UInt8(ascii: "&"):
            if consume("&") { return .symbol(.and) }
            throw error("expected '&&', found a single '&'", at: start)
        case UInt8(ascii: "|"):
            if consume("|") { return .symbol(.or) }
            throw error("expected '||', found a single '|'", at: start)
        case UInt8(ascii: "$"):
            throw error("substitution variables ($name) are not supported; write the value itself", at: start)
        case UInt8(ascii: "%"):
            throw error("format specifiers (%@, %K) are not supported; write the value or field name itself", at: start)
        case Byte.minus:
            throw error("expected a number after '-', found \(describeCharacter(at: position)) (arithmetic is not supported)", at: start)
        default:
            throw error(
                "unexpected character \(describeCharacter(at: start)); expected a field name, a value, an operator or a parenthesis",
                at: start
            )
        }
    }

    private mutating func consume(_ ascii: Unicode.Scalar) -> Bool {
        guard peek() == UInt8(ascii: ascii) else { return false }
        position += 1
        return true
    }

    /// `-? digits (. digits)? ([eE] [+-]? digits)?`: an INT64 without fraction or exponent,
    /// otherwise a DOUBLE. Out-of-range values are errors, not traps or infinities.
    private mutating func readNumber() throws(RecordError) -> PredicateToken.Kind {
        let start = position
        _ = consume("-")
        skipDigits()
        var isInteger = true
        if peek() == UInt8(ascii: ".") {
            guard Byte.isDigit(peek(1)) else { throw expectedDigits("after the decimal point", at: position + 1) }
            position += 1
            skipDigits()
            isInteger = false
        }
        if peek() == UInt8(ascii: "e") || peek() == UInt8(ascii: "E") {
            let signed = peek(1) == UInt8(ascii: "+") || peek(1) == Byte.minus
            let digitsAt = signed ? 2 : 1
            guard Byte.isDigit(peek(digitsAt)) else { throw expectedDigits("in the exponent", at: position + digitsAt) }
            position += digitsAt
            skipDigits()
            isInteger = false
        }
        if let next = peek(), Byte.isIdentifierPart(next) || next == UInt8(ascii: ".") {
            throw error("unexpected \(describeCharacter(at: position)) after the number \(lexeme(from: start))", at: position)
        }
        let literal = String(decoding: bytes[start..<position], as: UTF8.self)
        if isInteger {
            guard let number = Int64(literal) else {
                throw error("the integer \(lexeme(from: start)) is outside the INT64 range", at: start)
            }
            return .integer(number)
        }
        guard let number = Double(literal), number.isFinite else {
            throw error("the number \(lexeme(from: start)) is too large for a DOUBLE", at: start)
        }
        return .double(number)
    }

    private func expectedDigits(_ place: String, at offset: Int) -> RecordError {
        error("expected digits \(place), found \(describeCharacter(at: offset))", at: offset)
    }

    private mutating func skipDigits() {
        while Byte.isDigit(peek()) { position += 1 }
    }

    /// A string in `'…'` or `"…"`, with the escapes `\'` `\"` `\\` `\n` `\t` `\r` `\0` and
    /// `\uXXXX` (a UTF-16 surrogate pair written as two escapes makes one scalar).
    private mutating func readString(quote: UInt8) throws(RecordError) -> String {
        let start = position
        position += 1
        var content: [UInt8] = []
        while let byte = peek() {
            position += 1
            if byte == quote { return String(decoding: content, as: UTF8.self) }
            if byte == Byte.backslash {
                try readEscape(into: &content, stringStart: start)
            } else {
                content.append(byte)
            }
        }
        throw unterminatedString(at: start)
    }

    private func unterminatedString(at start: Int) -> RecordError {
        let quote = bytes.indices.contains(start) && bytes[start] == Byte.doubleQuote ? "\"" : "'"
        return error("unterminated string: expected a closing \(quote) before end of input", at: start)
    }

    private mutating func readEscape(into content: inout [UInt8], stringStart: Int) throws(RecordError) {
        let backslash = position - 1
        guard let byte = peek() else {
            throw unterminatedString(at: stringStart)
        }
        position += 1
        switch byte {
        case UInt8(ascii: "'"), UInt8(ascii: "\""), Byte.backslash: content.append(byte)
        case UInt8(ascii: "n"): content.append(Byte.newline)
        case UInt8(ascii: "t"): content.append(UInt8(ascii: "\t"))
        case UInt8(ascii: "r"): content.append(UInt8(ascii: "\r"))
        case UInt8(ascii: "0"): content.append(0)
        case UInt8(ascii: "u"):
            let scalar = try readUnicodeEscape(backslash: backslash)
            UTF8.encode(scalar) { content.append($0) }
        default:
            throw error(
                "unknown escape '\\\(describeCharacter(at: position - 1, quoted: false))'; "
                    + "expected one of \\' \\\" \\\\ \\n \\t \\r \\0 \\uXXXX",
                at: backslash
            )
        }
    }

    /// The scalar of `\uXXXX` (the `\u` already read), or of a `\uD8xx\uDCxx` surrogate pair.
    private mutating func readUnicodeEscape(backslash: Int) throws(RecordError) -> Unicode.Scalar {
        let unit = try readHex4(backslash: backslash)
        var value = unit
        if (0xD800...0xDBFF).contains(unit) {
            guard peek() == Byte.backslash, peek(1) == UInt8(ascii: "u") else {
                throw error("unpaired UTF-16 surrogate \\u\(hex(unit)); expected a low surrogate \\uDC00…\\uDFFF after it", at: backslash)
            }
            position += 2
            let low = try readHex4(backslash: position - 2)
            guard (0xDC00...0xDFFF).contains(low) else {
                throw error("unpaired UTF-16 surrogate \\u\(hex(unit)); expected a low surrogate \\uDC00…\\uDFFF after it", at: backslash)
            }
            value = 0x10000 + ((unit - 0xD800) << 10) + (low - 0xDC00)
        }
        guard let scalar = Unicode.Scalar(value) else {
            throw error("unpaired UTF-16 surrogate \\u\(hex(unit)); a low surrogate must follow a high one", at: backslash)
        }
        return scalar
    }

    private mutating func readHex4(backslash: Int) throws(RecordError) -> UInt32 {
        var value: UInt32 = 0
        for _ in 0..<4 {
            guard let byte = peek(), let digit = Byte.hexValue(byte) else {
                throw error("expected four hexadecimal digits after \\u, found \(describeCharacter(at: position))", at: backslash)
            }
            value = value << 4 | digit
            position += 1
        }
        return value
    }

    private func hex(_ value: UInt32) -> String {
        let digits = String(value, radix: 16, uppercase: true)
        return String(repeating: "0", count: max(0, 4 - digits.count)) + digits
    }

    // MARK: - Messages

    /// The source text from `start` to the current position, cut at 40 characters.
    private func lexeme(from start: Int) -> String {
        let text = String(decoding: bytes[min(start, position)..<position], as: UTF8.self)
        return text.count > 40 ? String(text.prefix(40)) + "…" : text
    }

    /// `';'`, `'é' (U+00E9)` or `U+0000` for the scalar starting at `offset`.
    private func describeCharacter(at offset: Int, quoted: Bool = true) -> String {
        guard offset < bytes.count else { return "end of input" }
        let lead = bytes[offset]
        let length = lead < 0x80 ? 1 : lead < 0xE0 ? 2 : lead < 0xF0 ? 3 : 4
        let slice = bytes[offset..<min(offset + length, bytes.count)]
        guard let scalar = String(decoding: slice, as: UTF8.self).unicodeScalars.first else { return "?" }
        let code = "U+" + hex(scalar.value)
        if scalar.value < 0x20 || (0x7F...0xA0).contains(scalar.value) { return code }
        let text = quoted ? (scalar == "'" ? "\"'\"" : "'\(scalar)'") : String(scalar)
        return scalar.isASCII ? text : "\(text) (\(code))"
    }
}

/// Byte classes of the predicate language.
private enum Byte {
    static let newline = UInt8(ascii: "\n")
    static let singleQuote = UInt8(ascii: "'")
    static let doubleQuote = UInt8(ascii: "\"")
    static let backslash = UInt8(ascii: "\\")
    static let hash = UInt8(ascii: "#")
    static let colon = UInt8(ascii: ":")
    static let minus = UInt8(ascii: "-")

    static func isWhitespace(_ byte: UInt8) -> Bool {
        byte == 0x20 || (0x09...0x0D).contains(byte)
    }

    static func isDigit(_ byte: UInt8?) -> Bool {
        guard let byte else { return false }
        return byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")
    }

    static func isIdentifierStart(_ byte: UInt8) -> Bool {
        (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z"))
            || (byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z")) || byte == UInt8(ascii: "_")
    }

    static func isIdentifierPart(_ byte: UInt8) -> Bool {
        isIdentifierStart(byte) || isDigit(byte)
    }

    static func hexValue(_ byte: UInt8) -> UInt32? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): UInt32(byte - UInt8(ascii: "0"))
        case UInt8(ascii: "a")...UInt8(ascii: "f"): UInt32(byte - UInt8(ascii: "a") + 10)
        case UInt8(ascii: "A")...UInt8(ascii: "F"): UInt32(byte - UInt8(ascii: "A") + 10)
        default: nil
        }
    }
}
