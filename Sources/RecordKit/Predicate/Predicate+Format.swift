extension Predicate: CustomStringConvertible {
    /// Canonical NSPredicate-format text, for explain output, messages and logs.
    ///
    /// For every predicate ``PredicateParser`` can produce, `PredicateParser.parse(p.description)`
    /// gives `p` back: strings are single-quoted with `\'`, `\\`, `\n`, `\t`, `\r` escaped and
    /// other invisible characters (controls, separators, bidirectional overrides) as `\uXXXX`;
    /// doubles always print with a `.` or an exponent; field names that spell a keyword get a
    /// `#`; parentheses appear exactly where grouping differs from precedence, so nested
    /// ``and(_:)`` and ``or(_:)`` nodes survive. Typed
    /// ``Literal/value(_:)`` literals print as the closest untyped literal (a reference as its
    /// quoted recordName) and come back untyped. `.and([])` prints as `TRUEPREDICATE`, `.or([])`
    /// as `FALSEPREDICATE`, a one-element `.and`/`.or` as its element, and infinite or NaN
    /// doubles as `inf`/`nan`; these few do not read back. Nor does a text whose escapes make
    /// it longer than ``PredicateParser/maximumLength``.
    public var description: String {
        switch self {
        case .all:
            "TRUEPREDICATE"
        case .compare(let key, let op, let literal, let caseInsensitive):
            "\(Self.format(key: key)) \(op.rawValue)\(Self.options(caseInsensitive)) \(Self.format(literal))"
        case .between(let key, let lower, let upper):
            "\(Self.format(key: key)) BETWEEN {\(Self.format(lower)), \(Self.format(upper))}"
        case .in(let key, let literals, let caseInsensitive):
            "\(Self.format(key: key)) IN\(Self.options(caseInsensitive)) {\(literals.map(Self.format).joined(separator: ", "))}"
        case .beginsWith(let key, let prefix, let caseInsensitive):
            "\(Self.format(key: key)) BEGINSWITH\(Self.options(caseInsensitive)) \(Self.quoted(prefix))"
        case .contains(let key, let literal, let caseInsensitive):
            "\(Self.format(key: key)) CONTAINS\(Self.options(caseInsensitive)) \(Self.format(literal))"
        case .isNull(let key):
            "\(Self.format(key: key)) == nil"
        case .distance(let key, let location, let op, let kilometres):
            "distanceToLocation:fromLocation:(\(Self.format(key: key)), \(location.latitude), \(location.longitude)) "
                + "\(op.rawValue) \(kilometres)"
        case .textSearch(let words):
            "self CONTAINS \(Self.quoted(words))"
        case .not(.all):
            "FALSEPREDICATE"
        case .not(.isNull(let key)):
            "\(Self.format(key: key)) != nil"
        case .not(let inner):
            "NOT " + inner.grouped(if: inner.isAnd || inner.isOr)
        case .and(let operands) where operands.count == 1, .or(let operands) where operands.count == 1:
            operands[0].description
        case .and(let operands):
            operands.isEmpty ? "TRUEPREDICATE" : operands.map { $0.grouped(if: $0.isAnd || $0.isOr) }.joined(separator: " AND ")
        case .or(let operands):
            operands.isEmpty ? "FALSEPREDICATE" : operands.map { $0.grouped(if: $0.isOr) }.joined(separator: " OR ")
        }
    }

    private var isAnd: Bool {
        if case .and(let operands) = printedForm { return operands.count > 1 }
        return false
    }

    private var isOr: Bool {
        if case .or(let operands) = printedForm { return operands.count > 1 }
        return false
    }

    /// The node whose text this one prints: a one-element AND or OR prints as its element.
    private var printedForm: Predicate {
        switch self {
        case .and(let operands) where operands.count == 1, .or(let operands) where operands.count == 1:
            operands[0].printedForm
        default:
            self
        }
    }

    private func grouped(if needed: Bool) -> String {
        needed ? "(\(description))" : description
    }

    private static func options(_ caseInsensitive: Bool) -> String {
        caseInsensitive ? "[c]" : ""
    }

    /// `key`, or `#key` when it spells a keyword.
    private static func format(key: String) -> String {
        PredicateKeyword(spelling: key) == nil ? key : "#" + key
    }

    static func format(_ literal: Literal) -> String {
        switch literal {
        case .string(let text): quoted(text)
        case .integer(let number): String(number)
        case .double(let number): String(number)
        case .bool(let flag): flag ? "TRUE" : "FALSE"
        case .value(let value): format(value)
        }
    }

    private static func format(_ value: Value) -> String {
        switch value {
        case .int64(let number): String(number)
        case .double(let number): String(number)
        case .reference(let reference): quoted(reference.recordName)
        case .list(let values): "{" + values.map(format).joined(separator: ", ") + "}"
        default: quoted(value.description)
        }
    }

    /// `text` in single quotes, escaped so that ``PredicateParser`` reads back the same scalars.
    static func quoted(_ text: String) -> String {
        var result = "'"
        for scalar in text.unicodeScalars {
            switch scalar {
            case "'": result += "\\'"
            case "\\": result += "\\\\"
            case "\n": result += "\\n"
            case "\t": result += "\\t"
            case "\r": result += "\\r"
            case _ where isInvisible(scalar):
                result += escaped(scalar)
            default:
                result.unicodeScalars.append(scalar)
            }
        }
        return result + "'"
    }

    /// Controls, line and paragraph separators and format characters (bidirectional overrides,
    /// BOM), which would make printed text misleading; joiners stay, emoji sequences need them.
    private static func isInvisible(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.properties.generalCategory {
        case .control, .lineSeparator, .paragraphSeparator: true
        case .format: scalar != "\u{200C}" && scalar != "\u{200D}"
        default: false
        }
    }

    /// `\uXXXX`, or a UTF-16 surrogate pair of them beyond the Basic Multilingual Plane.
    private static func escaped(_ scalar: Unicode.Scalar) -> String {
        func hex4(_ unit: UInt32) -> String {
            let digits = String(unit, radix: 16, uppercase: true)
            return "\\u" + String(repeating: "0", count: max(0, 4 - digits.count)) + digits
        }
        guard scalar.value > 0xFFFF else { return hex4(scalar.value) }
        let offset = scalar.value - 0x10000
        return hex4(0xD800 + (offset >> 10)) + hex4(0xDC00 + (offset & 0x3FF))
    }
}
