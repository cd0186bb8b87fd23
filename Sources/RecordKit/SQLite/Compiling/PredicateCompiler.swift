import Foundation
internal import GRDB

/// Compiles a ``Predicate`` into a SQL condition over one record type's table, with every
/// value bound. Pure: no database access, so it is tested on its own.
///
/// Logic is two-valued, as NSPredicate's: an absent field is not equal to anything and not
/// ordered against anything, and `NOT` of such a test is true. So `NOT (number >= 2)` and
/// `number != 2` both include records without a `number`; `number < 2` does not. The compiler
/// pushes `NOT` down to the tests (De Morgan) so that positive tests keep using indexes.
///
/// Each argument is made by an ``ArgumentBinding`` from the predicate's parameters
/// (``Predicate/parameterized(into:)``), so that the condition compiled for one predicate is bound
/// again with the values of another of the same shape.
struct PredicateCompiler {
    let layout: TableLayout
    /// How the compiled condition names the table: its name, or an alias in nested queries.
    let qualifier: String
    private(set) var arguments: [DatabaseValue] = []
    /// How each of ``arguments`` was made from the parameters of the predicate compiled.
    private(set) var bindings: [ArgumentBinding] = []
    /// The values of the predicate being compiled, in the order its leaves are compiled.
    private var parameters: [QueryParameter] = []
    /// The index in ``parameters`` of the next leaf's first value.
    private var nextParameter = 0

    init(layout: TableLayout, qualifier: String? = nil) {
        self.layout = layout
        self.qualifier = qualifier ?? layout.table
    }

    private var recordType: String { layout.recordType.name }

    /// The SQL condition of `predicate`, its arguments appended to ``arguments`` and ``bindings``
    /// (whose parameter indexes count from this predicate's first value).
    mutating func compile(_ predicate: Predicate) throws(RecordError) -> String {
        parameters = []
        _ = predicate.parameterized(into: &parameters)
        nextParameter = 0
        return try condition(predicate, negated: false)
    }

    private mutating func condition(_ predicate: Predicate, negated: Bool) throws(RecordError) -> String {
        switch predicate {
        case .all:
            return negated ? "0" : "1"
        case .not(let inner):
            return try condition(inner, negated: !negated)
        case .and(let parts), .or(let parts):
            let isAnd: Bool = if case .and = predicate { true } else { false }
            let joinsWithAnd = isAnd != negated
            guard !parts.isEmpty else { return joinsWithAnd ? "1" : "0" }
            var compiled: [String] = []
            for part in parts {
                compiled.append(try condition(part, negated: negated))
            }
            return compiled.count == 1 ? compiled[0] : "(" + compiled.joined(separator: joinsWithAnd ? " AND " : " OR ") + ")"
        case .compare(let key, .notEqual, let literal, let caseInsensitive):
            return try condition(.compare(key: key, .equal, literal, caseInsensitive: caseInsensitive), negated: !negated)
        case .isNull(let key):
            let resolved = try layout.resolve(key, qualifier: qualifier)
            return "\(resolved.expression) IS \(negated ? "NOT " : "")NULL"
        case .textSearch:
            let match = try fullTextMatch(parameter: takeParameters(1))
            return "\(qualifier).\(SQLName.rowID) \(negated ? "NOT " : "")IN (\(match))"
        default:
            let (test, key) = try atom(predicate)
            return negated ? "(\(key.expression) IS NULL OR NOT \(test))" : test
        }
    }

    /// A positive test that is false (never NULL-true) for absent values, and its key.
    private mutating func atom(_ predicate: Predicate) throws(RecordError) -> (String, ResolvedKey) {
        switch predicate {
        case .compare(let key, let op, _, let caseInsensitive):
            let index = takeParameters(1)
            let resolved = try layout.resolve(key, qualifier: qualifier)
            try requireScalar(resolved, operation: op.rawValue)
            if op != .equal { try requireOrdered(resolved, operation: op.rawValue) }
            let sqlOperator = op == .equal ? "=" : op.rawValue
            return ("\(try operand(resolved, caseInsensitive)) \(sqlOperator) \(try bind(index, resolved, caseInsensitive))", resolved)
        case .between(let key, _, _):
            let index = takeParameters(2)
            let resolved = try layout.resolve(key, qualifier: qualifier)
            try requireOrdered(resolved, operation: "BETWEEN")
            return ("\(resolved.expression) BETWEEN \(try bind(index, resolved)) AND \(try bind(index + 1, resolved))", resolved)
        case .in(let key, let literals, let caseInsensitive):
            let first = takeParameters(literals.count)
            let resolved = try layout.resolve(key, qualifier: qualifier)
            try requireScalar(resolved, operation: "IN")
            guard literals.count <= Limits.maximumInListCount else {
                throw RecordError(
                    .limitExceeded, "IN lists at most \(Limits.maximumInListCount) values; \(literals.count) were given", recordType: recordType, field: key)
            }
            guard !literals.isEmpty else { return ("0", resolved) }
            var placeholders: [String] = []
            for index in first..<first + literals.count {
                placeholders.append(try bind(index, resolved, caseInsensitive))
            }
            return ("\(try operand(resolved, caseInsensitive)) IN (\(placeholders.joined(separator: ", ")))", resolved)
        case .beginsWith(let key, _, let caseInsensitive):
            let index = takeParameters(1)
            let resolved = try layout.resolve(key, qualifier: qualifier)
            if resolved.type == .list(.string) {
                return (try listMemberBeginsWith(resolved, parameter: index, caseInsensitive), resolved)
            }
            guard resolved.type == .string || resolved.type == .reference else {
                throw typeError(resolved, "BEGINSWITH applies to STRING and LIST<STRING> fields")
            }
            try bindPrefix(index, key: key, caseInsensitive)
            return ("\(try operand(resolved, caseInsensitive)) GLOB ?", resolved)
        case .contains(let key, _, let caseInsensitive):
            let index = takeParameters(1)
            let resolved = try layout.resolve(key, qualifier: qualifier)
            if case .list(let element) = resolved.type {
                let item = element == .reference ? "element.value ->> '$.recordName'" : "element.value"
                let operand = caseInsensitive ? "shop_fold(\(item))" : item
                let elementKey = ResolvedKey(name: key, expression: item, type: element == .bytes ? .string : element)
                let placeholder = try bind(index, elementKey, caseInsensitive, listElement: element)
                return ("EXISTS (SELECT 1 FROM json_each(\(resolved.expression)) AS element WHERE \(operand) = \(placeholder))", resolved)
            }
            guard resolved.type == .string else { throw typeError(resolved, "CONTAINS applies to STRING and LIST fields") }
            return ("instr(\(try operand(resolved, caseInsensitive)), \(try bind(index, resolved, caseInsensitive))) > 0", resolved)
        case .distance(let key, _, let op, _):
            let index = takeParameters(1)
            let resolved = try layout.resolve(key, qualifier: qualifier)
            guard resolved.type == .location else { throw typeError(resolved, "distanceToLocation:fromLocation: applies to LOCATION fields") }
            let recordType = self.recordType
            try append(
                .parameter(index) { parameter throws(RecordError) in
                    let (origin, kilometres) = try parameter.location()
                    guard origin.isValid, kilometres.isFinite else {
                        throw RecordError(
                            .invalidArguments, "distanceToLocation:fromLocation: needs a valid location and a finite distance", recordType: recordType,
                            field: key)
                    }
                    return origin.latitude.databaseValue
                })
            try append(.parameter(index) { parameter throws(RecordError) in try parameter.location().origin.longitude.databaseValue })
            try append(.parameter(index) { parameter throws(RecordError) in try parameter.location().kilometres.databaseValue })
            let sqlOperator = op == .equal ? "=" : op == .notEqual ? "<>" : op.rawValue
            return ("shop_distance(\(resolved.expression), ?, ?) \(sqlOperator) ?", resolved)
        case .all, .not, .and, .or, .isNull, .textSearch:
            preconditionFailure("condition(_:negated:) handles \(predicate)")
        }
    }

    /// `key BEGINSWITH 'prefix'` on a LIST<STRING> field: some element begins with the prefix
    /// (NSPredicate's `ANY key BEGINSWITH`, CloudKit's `LIST_MEMBER_BEGINS_WITH`).
    private mutating func listMemberBeginsWith(_ key: ResolvedKey, parameter index: Int, _ caseInsensitive: Bool) throws(RecordError) -> String {
        try bindPrefix(index, key: key.name, caseInsensitive)
        let element = caseInsensitive ? "shop_fold(element.value)" : "element.value"
        return "EXISTS (SELECT 1 FROM json_each(\(key.expression)) AS element WHERE \(element) GLOB ?)"
    }

    private func operand(_ key: ResolvedKey, _ caseInsensitive: Bool) throws(RecordError) -> String {
        guard caseInsensitive else { return key.expression }
        guard key.type == .string || key.type == .reference else {
            throw typeError(key, "the [c] option applies to STRING fields")
        }
        return "shop_fold(\(key.expression))"
    }

    /// The index of the first of the next leaf's `count` values, which it takes.
    private mutating func takeParameters(_ count: Int) -> Int {
        defer { nextParameter += count }
        return nextParameter
    }

    /// Appends the argument `binding` makes from this predicate's parameters.
    private mutating func append(_ binding: ArgumentBinding) throws(RecordError) {
        arguments.append(try binding.value(in: parameters))
        bindings.append(binding)
    }

    /// Appends the bound value of the literal at parameter `index` for `key` (a list's element
    /// of type `listElement`, when given) and returns its placeholder.
    private mutating func bind(_ index: Int, _ key: ResolvedKey, _ caseInsensitive: Bool = false, listElement: FieldType? = nil) throws(RecordError) -> String {
        let recordType = self.recordType
        try append(
            .parameter(index) { parameter throws(RecordError) in
                var literal = try parameter.literal()
                if let listElement {
                    literal = try Self.listElementLiteral(literal, element: listElement, key: key.name, recordType: recordType)
                }
                var value = try LiteralBinding.bind(literal, to: key, type: key.type, recordType: recordType)
                if caseInsensitive, let text = String.fromDatabaseValue(value) {
                    value = SQLFunctions.caseFolded(text).databaseValue
                }
                return value
            })
        return "?"
    }

    /// Appends the GLOB pattern of the `BEGINSWITH` prefix at parameter `index` on `key`.
    private mutating func bindPrefix(_ index: Int, key: String, _ caseInsensitive: Bool) throws(RecordError) {
        let recordType = self.recordType
        try append(
            .parameter(index) { parameter throws(RecordError) in
                let prefix = try parameter.text()
                try ValueEncoding.checkNoNUL(prefix, field: key, in: recordType)
                let folded = caseInsensitive ? SQLFunctions.caseFolded(prefix) : prefix
                return (Self.globEscaped(folded) + "*").databaseValue
            })
    }

    private func requireScalar(_ key: ResolvedKey, operation: String) throws(RecordError) {
        switch key.type {
        case .list: throw typeError(key, "use CONTAINS to test a LIST field's elements, not \(operation)")
        case .location: throw typeError(key, "use distanceToLocation:fromLocation: to query a LOCATION")
        case .asset: throw typeError(key, "ASSET fields can only be tested with == nil / != nil")
        default: return
        }
    }

    private func requireOrdered(_ key: ResolvedKey, operation: String) throws(RecordError) {
        try requireScalar(key, operation: operation)
        if !key.type.isOrdered { throw typeError(key, "\(operation) needs an ordered type") }
    }

    private func typeError(_ key: ResolvedKey, _ reason: String) -> RecordError {
        RecordError(.schemaViolation, "\(recordType).\(key.name) is \(key.type): \(reason)", recordType: recordType, field: key.name)
    }

    /// The FTS5 subquery selecting rowids whose SEARCHABLE fields contain every word of the text
    /// at parameter `index`.
    private mutating func fullTextMatch(parameter index: Int) throws(RecordError) -> String {
        guard !layout.recordType.searchableFieldNames.isEmpty else {
            throw RecordError(
                .schemaViolation,
                "\(recordType) has no SEARCHABLE field for self CONTAINS; mark a STRING field SEARCHABLE first",
                recordType: recordType
            )
        }
        let recordType = self.recordType
        try append(
            .parameter(index) { parameter throws(RecordError) in
                let words = try parameter.text().split { !$0.isLetter && !$0.isNumber }
                guard !words.isEmpty else {
                    throw RecordError(.invalidArguments, "self CONTAINS needs at least one word to search for", recordType: recordType)
                }
                return words.map { "\"" + $0.replacingOccurrences(of: "\"", with: "\"\"") + "\"" }.joined(separator: " ").databaseValue
            })
        let fts = SQLName.fullTextTable(recordType)
        return "SELECT rowid FROM \(fts) WHERE \(fts) MATCH ?"
    }

    /// `literal` as list elements of type `element` are stored: BYTES elements are kept as
    /// base64 text, so a bytes value (or base64 text) compares as that text.
    static func listElementLiteral(_ literal: Predicate.Literal, element: FieldType, key: String, recordType: String) throws(RecordError) -> Predicate.Literal {
        guard element == .bytes else { return literal }
        switch literal {
        case .value(.bytes(let data)): return .string(data.base64EncodedString())
        case .string(let text) where Data(base64Encoded: text) != nil: return .string(text)
        default:
            throw RecordError(
                .schemaViolation, "\(recordType).\(key) is LIST<BYTES>; \(literal) is not a BYTES value (give base64 text)", recordType: recordType, field: key)
        }
    }

    /// `text` with GLOB's wildcards escaped, so it matches literally.
    static func globEscaped(_ text: String) -> String {
        var escaped = ""
        for character in text {
            switch character {
            case "*", "?", "[": escaped += "[\(character)]"
            default: escaped.append(character)
            }
        }
        return escaped
    }
}
