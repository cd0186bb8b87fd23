import TestSupport

@testable import RecordKit

/// Makes, from a seed, predicates the parser can produce and hostile predicate texts, so that
/// `parse(p.description) == p` and "parse never traps" can be checked on many inputs
/// reproducibly.
///
/// Keys include keywords (`IN`, `self`, `Nil`) that must print with `#`; strings include quotes,
/// backslashes, control characters, combining marks and 4-byte UTF-8.
struct PredicateGenerator {
    private var random: SplitMix64

    init(seed: UInt64) {
        random = SplitMix64(state: seed)
    }

    // MARK: - Predicates

    /// A predicate built only from parts the parser produces (so it must round-trip).
    mutating func predicate(depth: Int = 0) -> Predicate {
        guard depth < 4, int(0...2) != 0 else { return leaf() }
        switch int(0...2) {
        case 0: return .not(predicate(depth: depth + 1))
        case 1: return .and((0..<int(2...4)).map { _ in predicate(depth: depth + 1) })
        default: return .or((0..<int(2...4)).map { _ in predicate(depth: depth + 1) })
        }
    }

    private mutating func leaf() -> Predicate {
        let key = pick(Self.keys)
        switch int(0...8) {
        case 0:
            return .all
        case 1:
            let literal = literal()
            return .compare(key: key, pick(Predicate.ComparisonOperator.allCases), literal, caseInsensitive: literal.isString && bool())
        case 2:
            return .between(key: key, lower: literal(), upper: literal())
        case 3:
            if bool() { return .in(key: key, (0..<int(0...3)).map { _ in .string(string()) }, caseInsensitive: bool()) }
            return .in(key: key, (0..<int(0...3)).map { _ in literal() })
        case 4:
            return .beginsWith(key: key, string(), caseInsensitive: bool())
        case 5:
            let literal = literal()
            return .contains(key: key, literal, caseInsensitive: literal.isString && bool())
        case 6:
            return .isNull(key: key)
        case 7:
            let location = Location(
                latitude: Double.random(in: -90...90, using: &random),
                longitude: Double.random(in: -180...180, using: &random)
            )
            return .distance(key: key, from: location, pick(Predicate.ComparisonOperator.allCases), kilometres: double())
        default:
            return .textSearch(string())
        }
    }

    private mutating func literal() -> Predicate.Literal {
        switch int(0...4) {
        case 0: .string(string())
        case 1: .integer(Int64(bitPattern: random.next()))
        case 2: .integer(Int64(int(-10...10)))
        case 3: .double(double())
        default: .bool(bool())
        }
    }

    private mutating func double() -> Double {
        if bool() { return pick(Self.doubles) }
        let number = Double(bitPattern: random.next())
        return number.isFinite ? number : 0.5
    }

    private mutating func string() -> String {
        var text = ""
        for _ in 0..<int(0...8) { text.unicodeScalars.append(pick(Self.scalars)) }
        return text
    }

    // MARK: - Texts

    /// Up to 30 tokens of the predicate language and of hostile text, glued together.
    mutating func tokenSoup() -> String {
        (0..<int(0...30)).map { _ in pick(Self.tokens) + (bool() ? " " : "") }.joined()
    }

    /// `text` with one to three scalars deleted, replaced or inserted.
    mutating func mutation(of text: String) -> String {
        var scalars = Array(text.unicodeScalars)
        for _ in 0..<int(1...3) {
            let index = int(0...scalars.count)
            let replacement = Array(pick(Self.tokens).unicodeScalars)
            switch (int(0...2), index < scalars.count) {
            case (0, true): scalars.remove(at: index)
            case (1, true): scalars.replaceSubrange(index...index, with: replacement)
            default: scalars.insert(contentsOf: replacement, at: index)
            }
        }
        var result = ""
        result.unicodeScalars.append(contentsOf: scalars)
        return result
    }

    /// A string of up to 20 arbitrary Unicode scalars.
    mutating func randomScalars() -> String {
        var text = ""
        for _ in 0..<int(0...20) {
            let value = bool() ? UInt32(int(0...0x7F)) : UInt32(int(0...0x10FFFF))
            text.unicodeScalars.append(Unicode.Scalar(value) ?? "?")
        }
        return text
    }

    // MARK: - Pools

    private static let keys = ["name", "number", "list", "_x", "a1", "IN", "self", "Nil", "TruePredicate", "any", "CLLocation"]
    private static let doubles: [Double] = [0, -0.0, 0.5, -1.25, 1e300, -1e-300, .leastNonzeroMagnitude, .greatestFiniteMagnitude, .pi, 100]
    private static let scalars: [Unicode.Scalar] = [
        "a", "Z", "0", " ", "'", "\"", "\\", "\n", "\t", "\r", "\0", "\u{1}", "\u{7F}", "\u{85}", "é", "e", "\u{301}",
        "😀", "🛒", "𝄞", "日", "%", "$", ";", "-", "{", "}", "\u{FEFF}", "\u{2028}", "\u{202E}",
        "\u{200D}", "\u{E0067}",
    ]
    private static let tokens = [
        "name", "number", "list", "self", "SELF", "#IN", "#", "in", "IN", "BETWEEN", "BEGINSWITH", "CONTAINS", "ENDSWITH",
        "LIKE", "ANY", "AND", "and", "OR", "||", "&&", "&", "NOT", "!", "TRUEPREDICATE", "FALSEPREDICATE", "TRUE", "no",
        "nil", "NULL", "==", "=", "!=", "<>", "<", "<=", "=<", ">", ">=", "=>", "(", ")", "{", "}", "[c]", "[d]", "[",
        "]", ",", ":", "'x'", "\"y\"", "'", "\"", "\\", "\\'", "\\u", "\\uD83D", "'\\uDE00'", "'a\\'b'", "5", "-3",
        "1.5e3", "1.", "1e", "9223372036854775807", "9223372036854775808", "-9223372036854775808", "1e400", "0.5",
        "distanceToLocation:fromLocation:", "distanceToLocation:", "CLLocation", "<1, 2>", "{1, 2}", "$x", "%@", ";",
        "--", "/*", "\n", "\r\n", "\t", "\0", "😀", "é", "e\u{301}", ".", "-", "DROP TABLE Items", "'; DROP TABLE Items; --",
    ]

    // MARK: - Randomness

    private mutating func int(_ range: ClosedRange<Int>) -> Int {
        Int.random(in: range, using: &random)
    }

    private mutating func bool() -> Bool {
        random.next() & 1 == 1
    }

    private mutating func pick<Element>(_ elements: [Element]) -> Element {
        elements[int(0...(elements.count - 1))]
    }
}
