import RecordKit
import RecordQL

/// Turns lines of input into ``ScriptEntry`` values: a command per line, and GraphQL documents
/// that may span lines until their braces balance. Blank lines and `#` comment lines are skipped.
///
/// A line is GraphQL when it starts with `{`, `query` or `mutation` (and `explain` followed by
/// one of those explains the document; `watch` followed by one of those or `subscription`
/// watches it).
struct LineAssembler {
    /// The unfinished GraphQL document's text so far.
    private var document = ""
    /// The line the unfinished document starts on; `nil` when none is.
    private(set) var pendingLine: Int?
    /// What the document is for: run, explained or watched.
    private var purpose = Purpose.run
    private var balance = GraphQLTextScanner()

    /// Whether a GraphQL document is unfinished (the prompt shows `...> `).
    var isPending: Bool { pendingLine != nil }

    /// Takes line `number`; returns the entry it completes, if any. Throws for a line that
    /// cannot be split into words (an unterminated quote).
    mutating func feed(_ line: String, number: Int) throws(RecordError) -> ScriptEntry? {
        if isPending {
            document += "\n" + line
            balance.scan("\n" + line)
            return completed()
        }
        let trimmed = line.trimmingWhitespace
        if trimmed.isEmpty || trimmed.hasPrefix("#") { return nil }
        if Self.startsGraphQL(trimmed) {
            return start(trimmed, line: number, purpose: .run)
        }
        for purpose in [Purpose.explain, .watch] where Self.firstWord(of: trimmed) == purpose.rawValue {
            let rest = String(trimmed.dropFirst(purpose.rawValue.count)).trimmingWhitespace
            if Self.startsGraphQL(rest) || (purpose == .watch && Self.firstWord(of: rest) == "subscription") {
                return start(rest, line: number, purpose: purpose)
            }
        }
        return ScriptEntry(kind: .command(try LineTokenizer.words(line)), line: number)
    }

    /// Ends the input: an unfinished GraphQL document is an error.
    mutating func finish() throws(RecordError) {
        guard isPending else { return }
        let unclosed = max(balance.braceDepth, 1)
        let firstLine = document.firstLine
        abandon()
        throw RecordError(
            .invalidArguments,
            "unbalanced GraphQL: the document starting with '\(firstLine)' ends with \(unclosed) unclosed '{'; close every brace"
        )
    }

    /// Drops an unfinished document (Ctrl-C at the continuation prompt).
    mutating func abandon() {
        document = ""
        pendingLine = nil
        balance = GraphQLTextScanner()
    }

    private mutating func start(_ text: String, line: Int, purpose: Purpose) -> ScriptEntry? {
        document = text
        pendingLine = line
        self.purpose = purpose
        balance = GraphQLTextScanner()
        balance.scan(text)
        return completed()
    }

    private mutating func completed() -> ScriptEntry? {
        guard let line = pendingLine, balance.isComplete else { return nil }
        let kind: ScriptEntry.Kind =
            switch purpose {
            case .run: .graphQL(document)
            case .explain: .explainGraphQL(document)
            case .watch: .watchGraphQL(document)
            }
        let entry = ScriptEntry(kind: kind, line: line)
        abandon()
        return entry
    }

    /// What a GraphQL document is for: the command word before it, if any.
    private enum Purpose: String {
        case run = ""
        case explain
        case watch
    }

    /// Whether `text` (trimmed) begins a GraphQL document.
    static func startsGraphQL(_ text: String) -> Bool {
        if text.hasPrefix("{") { return true }
        guard text.hasPrefix("query") || text.hasPrefix("mutation") else { return false }
        let word = firstWord(of: text)
        return word == "query" || word == "mutation"
    }

    /// The leading run of letters, digits and underscores.
    static func firstWord(of text: String) -> Substring {
        text.prefix { $0.isLetter || $0.isNumber || $0 == "_" }
    }
}

extension String {
    /// The text without leading and trailing whitespace.
    var trimmingWhitespace: String {
        guard let first = firstIndex(where: { !$0.isWhitespace }), let last = lastIndex(where: { !$0.isWhitespace }) else {
            return ""
        }
        return first == startIndex && last == index(before: endIndex) ? self : String(self[first...last])
    }

    /// The text up to its first line end.
    var firstLine: String {
        String(prefix { !$0.isNewline })
    }
}
