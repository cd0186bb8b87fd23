/// Parses CloudKit's NSPredicate format — the text `CKQuery` accepts — into a ``Predicate``.
///
/// ```swift
/// let predicate = try PredicateParser.parse("list == 'L1' AND number >= 2")
/// ```
///
/// The language:
/// - Comparisons `key op value` with `==` (or `=`), `!=` (or `<>`), `<`, `<=` (or `=<`), `>`,
///   `>=` (or `=>`). A value on the left flips the operator: `5 < number` is `number > 5`.
/// - `key BEGINSWITH 'prefix'`; `key CONTAINS value` (substring, or element of a LIST field);
///   `key IN {a, b, …}` (`{}` matches nothing); `'x' IN key`, which means `key CONTAINS 'x'`;
///   `key BETWEEN {lower, upper}`, both ends included.
/// - `key == nil` is ``Predicate/isNull(key:)``, `key != nil` its negation (`NULL` works too,
///   and `nil == key`); no other operator takes `nil`.
/// - `self CONTAINS 'words'` is full-text search (``Predicate/textSearch(_:)``).
/// - `distanceToLocation:fromLocation:(key, lat, lon) < km` compares the distance in
///   kilometres between a LOCATION field and a point. The point may also be written `<lat, lon>`,
///   `{lat, lon}` or `CLLocation(lat, lon)`; Cocoa's `$variable` substitution is not supported.
///   The point must be a valid coordinate; the value on the other side must be a number.
/// - `NOT` (or `!`) binds tighter than `AND` (or `&&`), which binds tighter than `OR` (or
///   `||`); parentheses group. A chain `a AND b AND c` is one ``Predicate/and(_:)`` of three;
///   a parenthesised group stays a node of its own. `TRUEPREDICATE` is ``Predicate/all``,
///   `FALSEPREDICATE` is `.not(.all)`.
/// - Option `[c]` after `==`, `!=`, `<`, `<=`, `>`, `>=`, `BEGINSWITH`, `CONTAINS` or `IN`
///   makes a string comparison case-insensitive; it is an error with a non-string value.
///   `[d]` (diacritic-insensitive) is rejected rather than silently ignored, because the
///   engine cannot honour it. On `self CONTAINS` `[c]` is accepted and changes nothing:
///   full-text search is always case-insensitive.
/// - Values: strings in `'…'` or `"…"` with the escapes `\'` `\"` `\\` `\n` `\t` `\r` `\0`
///   `\uXXXX`; INT64 integers (out of range is an error); doubles with optional fraction and
///   exponent (`-1.5e3`); `TRUE`/`YES`, `FALSE`/`NO`.
/// - Keys are `[A-Za-z_][A-Za-z0-9_]*`, checked against the schema later. Keywords are
///   case-insensitive; a field named like one is written with `#` (`#in == 1`).
///
/// Errors are ``RecordError`` with code `invalidArguments`, located at the offending token
/// (line and column, in characters) and saying what was expected and what was found. Text
/// longer than ``maximumLength`` or nested deeper than ``maximumDepth`` fails with
/// `limitExceeded`. No input traps, and the recursion is bounded by ``maximumDepth``.
public enum PredicateParser {
    /// The most parentheses and `NOT`s that may enclose one another.
    public static let maximumDepth = 64
    /// The longest predicate text accepted, in Unicode scalars.
    public static let maximumLength = 10_000

    /// The predicate `text` describes.
    public static func parse(_ text: String) throws(RecordError) -> Predicate {
        var scalars = 0
        for index in text.unicodeScalars.indices {
            scalars += 1
            if scalars > maximumLength {
                let prefix = String(text.unicodeScalars[..<index])
                throw PredicateLexer(prefix).error(
                    "the predicate is longer than \(maximumLength) characters; shorten it",
                    at: prefix.utf8.count,
                    code: .limitExceeded
                )
            }
        }
        var reader = try PredicateReader(text)
        return try reader.readPredicate()
    }
}

/// The state of one parse: the lexer, the current token and the nesting depth. Recursive
/// descent over `or := and (OR and)*`, `and := not (AND not)*`, `not := NOT* primary`,
/// `primary := '(' or ')' | TRUEPREDICATE | FALSEPREDICATE | comparison`; comparisons are in
/// `PredicateParser+Comparison.swift`.
struct PredicateReader {
    private(set) var lexer: PredicateLexer
    /// The token being looked at.
    private(set) var token: PredicateToken
    private var depth = 0

    init(_ text: String) throws(RecordError) {
        lexer = PredicateLexer(text)
        token = try lexer.next()
    }

    /// The whole text as one predicate.
    mutating func readPredicate() throws(RecordError) -> Predicate {
        let predicate = try readOr()
        guard token.kind == .end else { throw unexpected(expected: "AND, OR or the end of the predicate") }
        return predicate
    }

    /// Moves to the next token.
    mutating func advance() throws(RecordError) {
        token = try lexer.next()
    }

    /// Skips the current token if it is `kind`, or fails saying `expected`.
    mutating func expect(_ kind: PredicateToken.Kind, _ expected: String) throws(RecordError) {
        guard token.kind == kind else { throw unexpected(expected: expected) }
        try advance()
    }

    /// "expected …, found …", located at the current token.
    func unexpected(expected: String) -> RecordError {
        lexer.error("expected \(expected), found \(token.shown)", at: token.offset)
    }

    /// `invalidArguments` with `message`, located at the UTF-8 offset `offset`.
    func error(_ message: String, at offset: Int) -> RecordError {
        lexer.error(message, at: offset)
    }

    private mutating func readOr() throws(RecordError) -> Predicate {
        var operands = [try readAnd()]
        while token.isConnective(.or, or: .or) {
            try advance()
            operands.append(try readAnd())
        }
        return operands.count == 1 ? operands[0] : .or(operands)
    }

    private mutating func readAnd() throws(RecordError) -> Predicate {
        var operands = [try readNot()]
        while token.isConnective(.and, or: .and) {
            try advance()
            operands.append(try readNot())
        }
        return operands.count == 1 ? operands[0] : .and(operands)
    }

    /// `NOT`s are counted in a loop, not recursed into, but still count towards the depth.
    private mutating func readNot() throws(RecordError) -> Predicate {
        let outerDepth = depth
        var negations = 0
        while token.isConnective(.not, or: .not) {
            try enterNesting()
            negations += 1
            try advance()
        }
        var predicate = try readPrimary()
        for _ in 0..<negations { predicate = .not(predicate) }
        depth = outerDepth
        return predicate
    }

    private mutating func readPrimary() throws(RecordError) -> Predicate {
        switch token.keyword {
        case .truePredicate?:
            try advance()
            return .all
        case .falsePredicate?:
            try advance()
            return .not(.all)
        default:
            break
        }
        guard token.kind == .symbol(.leftParen) else { return try readComparison() }
        let open = lexer.location(at: token.offset)
        try enterNesting()
        try advance()
        let inner = try readOr()
        try expect(.symbol(.rightParen), "')' to close the '(' at \(open)")
        depth -= 1
        return inner
    }

    private mutating func enterNesting() throws(RecordError) {
        depth += 1
        guard depth <= PredicateParser.maximumDepth else {
            throw lexer.error(
                "the predicate nests parentheses and NOTs more than \(PredicateParser.maximumDepth) levels deep; simplify it",
                at: token.offset,
                code: .limitExceeded
            )
        }
    }
}
