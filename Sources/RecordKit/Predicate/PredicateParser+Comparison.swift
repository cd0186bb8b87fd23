/// Comparisons: `operand operator [options] operand`, and the lists and locations inside them.
extension PredicateReader {
    /// One side of a comparison.
    private enum Operand {
        case key(String)
        case literal(Predicate.Literal)
        case null
        case selfKeyword
        case distance(key: String, from: Location)
    }

    /// An operand with the UTF-8 offset where it was written.
    private struct Side {
        var operand: Operand
        var offset: Int
    }

    private enum Operator {
        case binary(Binary)
        case `in`, between
    }

    /// The operators that take one value on the right.
    private enum Binary {
        case comparison(Predicate.ComparisonOperator)
        case beginsWith, contains
    }

    mutating func readComparison() throws(RecordError) -> Predicate {
        let left = try readSide(expected: "a comparison such as name == 'value'")
        let operatorToken = token
        let found = try readOperator(after: left)
        let options = try readOptions()
        switch found {
        case .in:
            return try readIn(left, caseInsensitive: options != nil)
        case .between:
            return try readBetween(left, options: options)
        case .binary(let binary):
            let right = try readSide(expected: "a value after '\(operatorToken.lexeme)'")
            return try combine(left, binary, right, options: options)
        }
    }

    // MARK: - Operands and operators

    private mutating func readSide(expected: String) throws(RecordError) -> Side {
        let offset = token.offset
        if let literal = literal(of: token) {
            try advance()
            return Side(operand: .literal(literal), offset: offset)
        }
        let operand: Operand
        switch (token.kind, token.keyword) {
        case (.identifier(let name, _), nil):
            operand = .key(name)
        case (_, .nil?), (_, .null?):
            operand = .null
        case (_, .self?):
            operand = .selfKeyword
        case (_, let keyword?) where [.any, .all, .some, .none].contains(keyword):
            throw error("\(keyword.rawValue) is not supported; to test a LIST field write 'field CONTAINS value'", at: offset)
        case (.function(let name), _):
            return Side(operand: try readDistance(name), offset: offset)
        case (.identifier(let name, _), let keyword?) where ![.and, .or, .not].contains(keyword):
            throw error("expected \(expected), found the keyword '\(name)'; a field of that name is written #\(name)", at: offset)
        default:
            throw unexpected(expected: expected)
        }
        try advance()
        return Side(operand: operand, offset: offset)
    }

    /// The untyped literal `token` spells, if it is a string, number or boolean.
    private func literal(of token: PredicateToken) -> Predicate.Literal? {
        switch (token.kind, token.keyword) {
        case (.string(let text), _): .string(text)
        case (.integer(let number), _): .integer(number)
        case (.double(let number), _): .double(number)
        case (_, .true?), (_, .yes?): .bool(true)
        case (_, .false?), (_, .no?): .bool(false)
        default: nil
        }
    }

    private mutating func readOperator(after left: Side) throws(RecordError) -> Operator {
        let found: Operator
        switch (token.kind, token.keyword) {
        case (.comparison(let op), _): found = .binary(.comparison(op))
        case (_, .in?): found = .in
        case (_, .between?): found = .between
        case (_, .beginsWith?): found = .binary(.beginsWith)
        case (_, .contains?): found = .binary(.contains)
        case (_, let keyword?) where [.endsWith, .like, .matches].contains(keyword):
            throw error("\(keyword.rawValue) is not supported by CloudKit queries; use BEGINSWITH or CONTAINS", at: token.offset)
        default:
            throw unexpected(expected: "an operator (==, !=, <, <=, >, >=, BEGINSWITH, CONTAINS, IN or BETWEEN) after \(describe(left.operand))")
        }
        try advance()
        return found
    }

    /// `[c]` after an operator: the offset of its `[`, or nil when there is none.
    private mutating func readOptions() throws(RecordError) -> Int? {
        guard token.kind == .symbol(.leftBracket) else { return nil }
        let offset = token.offset
        try advance()
        guard case .identifier(let letters, escaped: false) = token.kind else {
            throw unexpected(expected: "an option letter, as in [c]")
        }
        for letter in letters.lowercased() where letter != "c" {
            if letter == "d" {
                throw error("diacritic-insensitive matching ([d]) is not supported; use [c] for case-insensitive matching", at: token.offset)
            }
            throw error("unknown option '\(letter)'; the only option is [c] (case-insensitive)", at: token.offset)
        }
        try advance()
        try expect(.symbol(.rightBracket), "']' to close the options")
        return offset
    }

    // MARK: - Building the predicate

    private func combine(_ left: Side, _ comparison: Binary, _ right: Side, options: Int?) throws(RecordError) -> Predicate {
        var (subject, value, comparison) = (left, right, comparison)
        switch (left.operand, right.operand) {
        case (.literal, .key), (.literal, .distance), (.null, .key):
            guard case .comparison(let op) = comparison else {
                throw error("expected a field name before \(name(of: comparison)), found \(describe(left.operand))", at: left.offset)
            }
            (subject, value, comparison) = (right, left, .comparison(op.flipped))
        default:
            break
        }
        switch subject.operand {
        case .key(let key):
            return try keyed(key, comparison, value, options: options)
        case .distance(let key, let location):
            guard case .comparison(let op) = comparison, options == nil else {
                throw error("a distance is compared with ==, !=, <, <=, > or >=, without options", at: subject.offset)
            }
            guard case .literal(let literal) = value.operand, let kilometres = literal.number else {
                throw error("expected a number of kilometres, found \(describe(value.operand))", at: value.offset)
            }
            return .distance(key: key, from: location, op, kilometres: kilometres)
        case .selfKeyword:
            guard case .contains = comparison, case .literal(.string(let words)) = value.operand else {
                throw error("self is only supported as self CONTAINS 'words' (full-text search)", at: subject.offset)
            }
            return .textSearch(words)
        case .literal, .null:
            throw error("expected a field name on one side of \(name(of: comparison)), found \(describe(left.operand))", at: left.offset)
        }
    }

    private func keyed(_ key: String, _ comparison: Binary, _ value: Side, options: Int?) throws(RecordError) -> Predicate {
        let literal: Predicate.Literal
        switch value.operand {
        case .literal(let found):
            literal = found
        case .null:
            switch (comparison, options) {
            case (.comparison(.equal), nil): return .isNull(key: key)
            case (.comparison(.notEqual), nil): return .not(.isNull(key: key))
            default: throw error("nil can only be compared with == or !=, without options", at: value.offset)
            }
        case .key(let other):
            throw error("expected a value, found the field name '\(other)'; comparing two fields is not supported", at: value.offset)
        case .selfKeyword, .distance:
            throw error("expected a value, found \(describe(value.operand))", at: value.offset)
        }
        if let options, !literal.isString {
            throw error("[c] applies to strings only, not to \(describe(value.operand))", at: options)
        }
        switch comparison {
        case .comparison(let op):
            return .compare(key: key, op, literal, caseInsensitive: options != nil)
        case .contains:
            return .contains(key: key, literal, caseInsensitive: options != nil)
        case .beginsWith:
            guard case .string(let prefix) = literal else {
                throw error("expected a string after BEGINSWITH, found \(describe(value.operand))", at: value.offset)
            }
            return .beginsWith(key: key, prefix, caseInsensitive: options != nil)
        }
    }

    /// `key IN {…}`, or `value IN key` meaning `key CONTAINS value`.
    private mutating func readIn(_ left: Side, caseInsensitive: Bool) throws(RecordError) -> Predicate {
        switch left.operand {
        case .key(let key):
            guard token.kind == .symbol(.leftBrace) else {
                throw unexpected(expected: "a list in braces after IN, like IN {'a', 'b'}")
            }
            let (items, _) = try readList()
            if caseInsensitive, let item = items.first(where: { !$0.literal.isString }) {
                throw error("[c] applies to strings only, not to \(describe(.literal(item.literal)))", at: item.offset)
            }
            return .in(key: key, items.map(\.literal), caseInsensitive: caseInsensitive)
        case .literal(let literal):
            if caseInsensitive, !literal.isString {
                throw error("[c] applies to strings only, not to \(describe(left.operand))", at: left.offset)
            }
            let right = try readSide(expected: "a LIST field name after IN")
            guard case .key(let key) = right.operand else {
                throw error("expected a LIST field name after IN, found \(describe(right.operand))", at: right.offset)
            }
            return .contains(key: key, literal, caseInsensitive: caseInsensitive)
        case .null, .selfKeyword, .distance:
            throw error("expected a field name or a value before IN, found \(describe(left.operand))", at: left.offset)
        }
    }

    private mutating func readBetween(_ left: Side, options: Int?) throws(RecordError) -> Predicate {
        guard case .key(let key) = left.operand else {
            throw error("expected a field name before BETWEEN, found \(describe(left.operand))", at: left.offset)
        }
        if let options { throw error("BETWEEN takes no options", at: options) }
        guard token.kind == .symbol(.leftBrace) else {
            throw unexpected(expected: "two values in braces after BETWEEN, like BETWEEN {1, 5}")
        }
        let (items, close) = try readList()
        guard items.count == 2 else {
            let offset = items.count > 2 ? items[2].offset : close
            throw error("BETWEEN expects exactly two values {lower, upper}, found \(items.count)", at: offset)
        }
        return .between(key: key, lower: items[0].literal, upper: items[1].literal)
    }

    /// `{v, …}` at the current `{`: the values with their offsets, and the offset of the `}`.
    private mutating func readList() throws(RecordError) -> ([(literal: Predicate.Literal, offset: Int)], Int) {
        let open = lexer.location(at: token.offset)
        try advance()
        var items: [(literal: Predicate.Literal, offset: Int)] = []
        while token.kind != .symbol(.rightBrace) {
            if !items.isEmpty { try expect(.symbol(.comma), "',' or '}' in the list opened at \(open)") }
            guard let literal = literal(of: token) else {
                throw unexpected(expected: items.isEmpty ? "a value or '}'" : "a value after ','")
            }
            items.append((literal, token.offset))
            try advance()
        }
        let close = token.offset
        try advance()
        return (items, close)
    }

    // MARK: - distanceToLocation:fromLocation:

    private mutating func readDistance(_ function: String) throws(RecordError) -> Operand {
        guard function.lowercased() == "distancetolocation:fromlocation:" else {
            throw error("unknown function '\(function)'; the only function is distanceToLocation:fromLocation:", at: token.offset)
        }
        try advance()
        try expect(.symbol(.leftParen), "'(' after distanceToLocation:fromLocation:")
        guard case .identifier(let key, let escaped) = token.kind, escaped || token.keyword == nil else {
            throw unexpected(expected: "a LOCATION field name")
        }
        try advance()
        try expect(.symbol(.comma), "',' after the field name")
        let location = try readLocation()
        try expect(.symbol(.rightParen), "')' to close distanceToLocation:fromLocation:(…)")
        return .distance(key: key, from: location)
    }

    /// `lat, lon`, `<lat, lon>`, `{lat, lon}` or `CLLocation(lat, lon)`.
    private mutating func readLocation() throws(RecordError) -> Location {
        let start = token.offset
        let closing: (kind: PredicateToken.Kind, text: String)?
        switch token.kind {
        case .comparison(.less): closing = (.comparison(.greater), ">")
        case .symbol(.leftBrace): closing = (.symbol(.rightBrace), "}")
        case .identifier(let name, escaped: false) where name.lowercased() == "cllocation":
            try advance()
            guard token.kind == .symbol(.leftParen) else { throw unexpected(expected: "'(' after CLLocation") }
            closing = (.symbol(.rightParen), ")")
        default: closing = nil
        }
        if closing != nil { try advance() }
        let latitude = try readCoordinate("a latitude")
        try expect(.symbol(.comma), "',' between latitude and longitude")
        let longitude = try readCoordinate("a longitude")
        if let closing { try expect(closing.kind, "'\(closing.text)' after the longitude") }
        let location = Location(latitude: latitude, longitude: longitude)
        guard location.isValid else {
            throw error("latitude must be within ±90 and longitude within ±180, found \(location)", at: start)
        }
        return location
    }

    private mutating func readCoordinate(_ expected: String) throws(RecordError) -> Double {
        guard let number = literal(of: token)?.number else { throw unexpected(expected: expected) }
        try advance()
        return number
    }

    // MARK: - Messages

    private func name(of comparison: Binary) -> String {
        switch comparison {
        case .comparison(let op): op.rawValue
        case .beginsWith: "BEGINSWITH"
        case .contains: "CONTAINS"
        }
    }

    private func describe(_ operand: Operand) -> String {
        switch operand {
        case .key(let key): "the field name '\(key)'"
        case .literal(.string): "a string"
        case .literal(.bool(let flag)): flag ? "TRUE" : "FALSE"
        case .literal(let literal): "the number \(literal)"
        case .null: "nil"
        case .selfKeyword: "self"
        case .distance: "a distance"
        }
    }
}

extension Predicate.ComparisonOperator {
    /// The operator with its sides swapped: `5 < x` is `x > 5`.
    var flipped: Self {
        switch self {
        case .equal, .notEqual: self
        case .less: .greater
        case .lessOrEqual: .greaterOrEqual
        case .greater: .less
        case .greaterOrEqual: .lessOrEqual
        }
    }
}

extension Predicate.Literal {
    var isString: Bool {
        if case .string = self { return true }
        return false
    }

    /// The value of an integer or double literal.
    var number: Double? {
        switch self {
        case .integer(let number): Double(number)
        case .double(let number): number
        default: nil
        }
    }
}
