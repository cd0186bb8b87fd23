/// The parser's position in the tokens of one CKDB text, and the errors that point into it.
///
/// Keywords match bare words only, ignoring case; a quoted word is always a name.
struct CKDBCursor {
    let text: String
    private let tokens: [CKDBToken]
    private let annotations: [CKDBLexer.Annotation]
    private var position = 0

    init(text: String) throws(RecordError) {
        self.text = text
        (tokens, annotations) = try CKDBLexer.scan(text)
    }

    /// The `// references …` annotation on the line where `token` is, with its location.
    func annotation(onLineOf token: CKDBToken) -> (target: String, location: SourceLocation)? {
        let line = SourceLocation(offset: token.start, in: text).line
        for annotation in annotations {
            let location = SourceLocation(offset: annotation.start, in: text)
            if location.line == line { return (annotation.target, location) }
        }
        return nil
    }

    /// The token under the cursor; the end token once everything is read.
    var current: CKDBToken { tokens[position] }

    var isAtEnd: Bool { current.kind == .end }

    /// The token after the current one (the end token at the end).
    var following: CKDBToken { tokens[min(position + 1, tokens.count - 1)] }

    /// Moves past the current token and returns it.
    @discardableResult
    mutating func advance() -> CKDBToken {
        let token = current
        if position < tokens.count - 1 { position += 1 }
        return token
    }

    /// Whether the current token is the bare word `keyword`, in any case.
    func isKeyword(_ keyword: String) -> Bool {
        if case .word(let word) = current.kind { return word.uppercased() == keyword }
        return false
    }

    /// The current token's word, upper-cased, if it is a bare word.
    var keyword: String? {
        if case .word(let word) = current.kind { return word.uppercased() }
        return nil
    }

    func isPunctuation(_ mark: Character) -> Bool {
        current.kind == .punctuation(mark)
    }

    /// Takes the keyword `keyword`, or throws saying that `expected` was expected.
    mutating func expectKeyword(_ keyword: String, expected: String) throws(RecordError) {
        guard isKeyword(keyword) else { throw unexpected(expected) }
        advance()
    }

    /// Takes the punctuation mark `mark`, or throws saying that `expected` was expected.
    mutating func expectPunctuation(_ mark: Character, expected: String) throws(RecordError) {
        guard isPunctuation(mark) else { throw unexpected(expected) }
        advance()
    }

    /// Takes a bare or quoted name, or throws saying that `expected` was expected.
    mutating func expectName(_ expected: String) throws(RecordError) -> (name: String, token: CKDBToken) {
        guard let name = current.name else { throw unexpected(expected) }
        return (name, advance())
    }

    /// `expected … but found …`, located at the current token.
    func unexpected(_ expected: String) -> RecordError {
        error("expected \(expected) but found \(current.shown)", at: current)
    }

    /// An `invalidArguments` error located at `token`.
    func error(_ message: String, at token: CKDBToken) -> RecordError {
        RecordError(.invalidArguments, message, location: location(of: token))
    }

    /// `error` with its location set to `token`'s.
    func locating(_ error: RecordError, at token: CKDBToken) -> RecordError {
        var located = error
        located.location = location(of: token)
        return located
    }

    /// The line and column where `token` starts.
    func location(of token: CKDBToken) -> SourceLocation {
        SourceLocation(offset: token.start, in: text)
    }
}
