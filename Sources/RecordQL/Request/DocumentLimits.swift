import RecordKit

/// Bounds checked on a request's text before it is parsed, so that no document can exhaust the
/// stack of the recursive parser, validator or compiler: a length, and a nesting depth of
/// `{}`, `[]` and `()` (strings and comments left out of the count, by ``GraphQLTextScanner``).
/// The same scan refuses a `\u` escape cut short by the end of the document, on which
/// GraphQLSwift 4.3's lexer reads past the end of the text and traps (found by `Scripts/fuzz graphql`).
enum DocumentLimits {
    /// The longest document accepted, in bytes of UTF-8.
    static let maximumLength = 1 << 20
    /// The deepest nesting of braces, brackets and parentheses accepted.
    static let maximumDepth = 64

    /// Fails with `limitExceeded`, located, when `text` passes a bound.
    static func check(_ text: String) throws(GraphQLFailure) {
        try checkLength(text)
        var scanner = GraphQLTextScanner(depthLimit: maximumDepth)
        scanner.scan(text)
        if let position = scanner.tooDeep {
            throw failure(.limitExceeded, "the document nests selections or values deeper than \(maximumDepth) levels", at: position)
        }
        if let position = scanner.unfinishedEscape {
            throw failure(
                .invalidArguments, "Syntax Error: the document ends inside a \\u escape; a \\u escape takes four hexadecimal digits", at: position
            )
        }
    }

    private static func failure(_ code: RecordError.Code, _ message: String, at position: GraphQLTextScanner.Position) -> GraphQLFailure {
        GraphQLFailure([GraphQLResponseError(code, message, locations: [position])], stage: .parse)
    }

    /// Fails with `limitExceeded` when `text` is longer than ``maximumLength`` (checked before a
    /// text is looked up in, or kept by, the document cache).
    static func checkLength(_ text: String) throws(GraphQLFailure) {
        guard text.utf8.count <= maximumLength else {
            throw GraphQLFailure(.limitExceeded, "the document is longer than \(maximumLength) bytes; split it into several requests")
        }
    }
}
