/// One token of NSPredicate-format text, as ``PredicateLexer`` produces it.
struct PredicateToken: Sendable, Equatable {
    /// What the token is.
    enum Kind: Sendable, Equatable {
        /// A name: a keyword or a field name. `escaped` is true for `#name`, which is always a
        /// field name, even when it spells a keyword (`#IN`).
        case identifier(String, escaped: Bool)
        /// A selector-style function name, such as `distanceToLocation:fromLocation:`.
        case function(String)
        /// A quoted string, escapes already resolved.
        case string(String)
        case integer(Int64)
        case double(Double)
        /// `==` (or `=`), `!=` (or `<>`), `<`, `<=` (or `=<`), `>`, `>=` (or `=>`).
        case comparison(Predicate.ComparisonOperator)
        case symbol(Symbol)
        case end
    }

    /// Punctuation and the logical operators.
    enum Symbol: String, Sendable {
        case leftParen = "("
        case rightParen = ")"
        case leftBrace = "{"
        case rightBrace = "}"
        case leftBracket = "["
        case rightBracket = "]"
        case comma = ","
        case and = "&&"
        case or = "||"
        case not = "!"
    }

    var kind: Kind
    /// UTF-8 offset of the token's first byte in the source text.
    var offset: Int
    /// The source text of the token, shortened for messages.
    var lexeme: String

    /// The keyword this token spells, unless it is `#`-escaped or not a keyword at all.
    var keyword: PredicateKeyword? {
        guard case .identifier(let name, escaped: false) = kind else { return nil }
        return PredicateKeyword(spelling: name)
    }

    /// Whether the token is the keyword or symbol form of `AND`, `OR` or `NOT`.
    func isConnective(_ keyword: PredicateKeyword, or symbol: Symbol) -> Bool {
        kind == .symbol(symbol) || self.keyword == keyword
    }

    /// How an error message names this token: `end of input`, `the string 'abc'`, `'=='`.
    var shown: String {
        switch kind {
        case .end: "end of input"
        case .string: "the string \(lexeme)"
        case .integer, .double: "the number \(lexeme)"
        case .identifier, .function, .comparison, .symbol: "'\(lexeme)'"
        }
    }
}

/// The reserved words of the predicate language, matched case-insensitively. A field whose
/// name is one of them is written with `#` (`#in == 1`); ``Predicate/description`` does that.
enum PredicateKeyword: String, Sendable, CaseIterable {
    case and = "AND"
    case or = "OR"
    case not = "NOT"
    case `in` = "IN"
    case between = "BETWEEN"
    case beginsWith = "BEGINSWITH"
    case contains = "CONTAINS"
    case `true` = "TRUE"
    case `false` = "FALSE"
    case yes = "YES"
    case no = "NO"
    case `nil` = "NIL"
    case null = "NULL"
    case `self` = "SELF"
    case truePredicate = "TRUEPREDICATE"
    case falsePredicate = "FALSEPREDICATE"
    // Reserved by NSPredicate but not supported by CloudKit queries; recognised so that the
    // error can say so instead of calling them unknown field names.
    case endsWith = "ENDSWITH"
    case like = "LIKE"
    case matches = "MATCHES"
    case any = "ANY"
    case all = "ALL"
    case some = "SOME"
    case none = "NONE"

    /// The keyword spelled `name` in any letter case, if any.
    init?(spelling name: String) {
        self.init(rawValue: name.uppercased())
    }
}
