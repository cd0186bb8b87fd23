import RecordKit
/// Bounds checked on a request's text before it is parsed, so that no document can exhaust the
/// stack of the recursive parser, validator or compiler: a length, and a nesting depth of
/// `{}`, `[]` and `()` (strings and comments left out of the count). The same scan refuses a
/// `\u` escape cut short by the end of the document, on which GraphQLSwift 4.3's lexer reads
/// past the end of the text and traps (found by `Scripts/fuzz graphql`).
enum DocumentLimits {
    /// The longest document accepted, in bytes of UTF-8.
    static let maximumLength = 1 << 20
    /// The deepest nesting of braces, brackets and parentheses accepted.
    static let maximumDepth = 64

    /// Fails with `limitExceeded`, located, when `text` passes a bound.
    static func check(_ text: String) throws(GraphQLFailure) {
        try checkLength(text)
        var scanner = Scanner(bytes: Array(text.utf8))
        try scanner.run()
    }

    /// Fails with `limitExceeded` when `text` is longer than ``maximumLength`` (checked before a
    /// text is looked up in, or kept by, the document cache).
    static func checkLength(_ text: String) throws(GraphQLFailure) {
        guard text.utf8.count <= maximumLength else {
            throw GraphQLFailure(.limitExceeded, "the document is longer than \(maximumLength) bytes; split it into several requests")
        }
    }

    private struct Scanner {
        let bytes: [UInt8]
        var index = 0
        var line = 1
        var lineStart = 0
        var depth = 0

        mutating func run() throws(GraphQLFailure) {
            while index < bytes.count {
                switch bytes[index] {
                case UInt8(ascii: "{"), UInt8(ascii: "["), UInt8(ascii: "("):
                    depth += 1
                    if depth > DocumentLimits.maximumDepth {
                        let location = GraphQLResponseError.Location(line: line, column: index - lineStart + 1)
                        throw GraphQLFailure([GraphQLResponseError(
                            .limitExceeded,
                            "the document nests selections or values deeper than \(DocumentLimits.maximumDepth) levels",
                            locations: [location]
                        )], stage: .parse)
                    }
                case UInt8(ascii: "}"), UInt8(ascii: "]"), UInt8(ascii: ")"):
                    depth -= 1
                case UInt8(ascii: "#"):
                    while index + 1 < bytes.count, bytes[index + 1] != UInt8(ascii: "\n") { index += 1 }
                case UInt8(ascii: "\""):
                    try skipString()
                case UInt8(ascii: "\n"):
                    line += 1
                    lineStart = index + 1
                default:
                    break
                }
                index += 1
            }
        }

        /// Moves `index` to the closing quote of the string starting at it.
        private mutating func skipString() throws(GraphQLFailure) {
            let isBlock = isTripleQuote(at: index)
            index += isBlock ? 3 : 1
            while index < bytes.count {
                let byte = bytes[index]
                if byte == UInt8(ascii: "\\") && !isBlock && index + 1 < bytes.count && bytes[index + 1] == UInt8(ascii: "u") && index + 5 >= bytes.count {
                    let location = GraphQLResponseError.Location(line: line, column: index - lineStart + 1)
                    throw GraphQLFailure([GraphQLResponseError(
                        .invalidArguments,
                        "Syntax Error: the document ends inside a \\u escape; a \\u escape takes four hexadecimal digits",
                        locations: [location]
                    )], stage: .parse)
                }
                if byte == UInt8(ascii: "\\") {
                    // `\"` in a string; `\"""` in a block string, where `\` escapes nothing else.
                    index += isBlock ? (isTripleQuote(at: index + 1) ? 4 : 1) : 2
                    continue
                }
                if byte == UInt8(ascii: "\n") {
                    line += 1
                    lineStart = index + 1
                }
                if byte == UInt8(ascii: "\"") {
                    if !isBlock { return }
                    if isTripleQuote(at: index) {
                        index += 2
                        return
                    }
                }
                index += 1
            }
        }

        private func isTripleQuote(at start: Int) -> Bool {
            start + 2 < bytes.count && bytes[start...start + 2].allSatisfy { $0 == UInt8(ascii: "\"") }
        }
    }
}
