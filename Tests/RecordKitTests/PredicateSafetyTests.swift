import Testing

@testable import RecordKit

/// Hostile text: SQL fragments, quotes, NUL bytes and noise either fail with a located
/// ``RecordError`` or come out as plain literal text, scalar for scalar; nothing traps.
@Suite("PredicateParser safety")
struct PredicateSafetyTests {
    static let hostilePayloads: [String] = [
        "'; DROP TABLE Items; --",
        "\"; DROP TABLE Items; --",
        "Robert'); DROP TABLE Students;--",
        "' OR '1'='1",
        "1; DELETE FROM records",
        "name == 'x' OR 1=1 --",
        "SELECT * FROM sqlite_master",
        "x' UNION SELECT sql FROM sqlite_master --",
        "/* comment */",
        "--",
        ";",
        "\0",
        "a\0b",
        "\0'; DROP TABLE Items; --\0",
        "\\",
        "\\'",
        "''",
        "\"\"",
        "%@ %K $loc",
        "\u{202E}gnp.exe",
        "😀\u{200D}🛒",
        "e\u{301}",
        "\r\n",
        String(repeating: "'", count: 101),
    ]

    @Test(arguments: hostilePayloads)
    func hostileTextInsideAStringLiteralIsKeptExactly(_ payload: String) throws {
        let escaped = payload.unicodeScalars.map { $0 == "\\" || $0 == "\"" ? "\\\($0)" : String($0) }.joined()
        for text in ["name == \(Predicate.quoted(payload))", "name == \"\(escaped)\"", "\(Predicate.quoted(payload)) == name"] {
            let parsed = try PredicateParser.parse(text)
            guard case .compare(key: "name", .equal, .string(let literal), caseInsensitive: false) = parsed else {
                Issue.record("\(text.debugDescription) parsed as \(parsed)")
                continue
            }
            #expect(Array(literal.unicodeScalars) == Array(payload.unicodeScalars), "from \(text.debugDescription)")
        }
    }

    @Test(arguments: hostilePayloads)
    func hostileTextAsAPredicateIsRejected(_ payload: String) {
        #expect(throws: RecordError.self, "\(payload.debugDescription)") { try PredicateParser.parse(payload) }
        if !payload.allSatisfy(\.isWhitespace) {
            #expect(throws: RecordError.self) { try PredicateParser.parse("name == 'x' \(payload)") }
        }
    }

    @Test func sqlWrittenByHandInsideQuotesIsOnlyText() throws {
        #expect(try PredicateParser.parse(#"name == "'; DROP TABLE Items; --""#) == .compare(key: "name", .equal, "'; DROP TABLE Items; --"))
        #expect(try PredicateParser.parse(#"name == '\'; DROP TABLE Items; --'"#) == .compare(key: "name", .equal, "'; DROP TABLE Items; --"))
        #expect(try PredicateParser.parse("name IN {'a\0b', '--'}") == .in(key: "name", ["a\0b", "--"]))
    }

    @Test func randomTokenStringsNeverTrapAndFailOnlyWithLocatedErrors() {
        var generator = PredicateGenerator(seed: 0x5EED_0001)
        var parsed = 0
        for _ in 0..<20_000 where check(generator.tokenSoup()) { parsed += 1 }
        #expect(parsed > 0)
    }

    @Test func mutatedWellFormedPredicatesNeverTrap() {
        var generator = PredicateGenerator(seed: 0x5EED_0002)
        var parsed = 0
        for row in wellFormedPredicates {
            for _ in 0..<100 where check(generator.mutation(of: row.text)) { parsed += 1 }
        }
        #expect(parsed > 500)
    }

    @Test func randomScalarsNeverTrap() {
        var generator = PredicateGenerator(seed: 0x5EED_0003)
        for _ in 0..<5_000 { _ = check(generator.randomScalars()) }
    }

    /// Parses `text`. A failure must be an `invalidArguments` or `limitExceeded` error with a
    /// location inside the text; a success must have identifier-shaped keys and print as
    /// text that parses back to the same predicate. Returns whether `text` parsed.
    private func check(_ text: String) -> Bool {
        let predicate: Predicate
        do {
            predicate = try PredicateParser.parse(text)
        } catch {
            #expect(error.code == .invalidArguments || error.code == .limitExceeded, "\(text.debugDescription): \(error)")
            let location = error.location ?? SourceLocation(line: 0, column: 0)
            #expect(location.line >= 1 && location.line <= text.utf8.count + 1, "\(text.debugDescription): \(error)")
            #expect(location.column >= 1 && location.column <= text.utf8.count + 1, "\(text.debugDescription): \(error)")
            return false
        }
        for key in keys(of: predicate) {
            #expect(Self.isIdentifier(key), "\(text.debugDescription) gave key \(key.debugDescription)")
        }
        #expect((try? PredicateParser.parse(predicate.description)) == predicate, "\(text.debugDescription) printed as \(predicate)")
        return true
    }

    private func keys(of predicate: Predicate) -> [String] {
        switch predicate {
        case .all, .textSearch: []
        case .compare(let key, _, _, _), .between(let key, _, _), .in(let key, _, _), .beginsWith(let key, _, _),
            .contains(let key, _, _), .isNull(let key), .distance(let key, _, _, _):
            [key]
        case .not(let inner): keys(of: inner)
        case .and(let operands), .or(let operands): operands.flatMap(keys(of:))
        }
    }

    private static func isIdentifier(_ key: String) -> Bool {
        guard let first = key.unicodeScalars.first, first.isASCII, first.properties.isAlphabetic || first == "_" else { return false }
        return key.unicodeScalars.allSatisfy { $0.isASCII && ($0.properties.isAlphabetic || $0.properties.numericType != nil || $0 == "_") }
    }
}
