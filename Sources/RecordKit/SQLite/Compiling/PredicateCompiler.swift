import Foundation
internal import GRDB

/// Compiles a ``Predicate`` into a SQL condition over one record type's table, with every
/// value bound. Pure: no database access, so it is tested on its own.
///
/// Logic is two-valued, as NSPredicate's: an absent field is not equal to anything and not
/// ordered against anything, and `NOT` of such a test is true. So `NOT (number >= 2)` and
/// `number != 2` both include records without a `number`; `number < 2` does not. The compiler
/// pushes `NOT` down to the tests (De Morgan) so that positive tests keep using indexes.
struct PredicateCompiler {
    let layout: TableLayout
    /// How the compiled condition names the table: its name, or an alias in nested queries.
    let qualifier: String
    private(set) var arguments: [DatabaseValue] = []

    init(layout: TableLayout, qualifier: String? = nil) {
        self.layout = layout
        self.qualifier = qualifier ?? layout.table
    }

    private var recordType: String { layout.recordType.name }

    mutating func compile(_ predicate: Predicate, negated: Bool = false) throws(RecordError) -> String {
        switch predicate {
        case .all:
            return negated ? "0" : "1"
        case .not(let inner):
            return try compile(inner, negated: !negated)
        case .and(let parts), .or(let parts):
            let isAnd: Bool = if case .and = predicate { true } else { false }
            let joinsWithAnd = isAnd != negated
            guard !parts.isEmpty else { return joinsWithAnd ? "1" : "0" }
            var compiled: [String] = []
            for part in parts {
                compiled.append(try compile(part, negated: negated))
            }
            return compiled.count == 1 ? compiled[0] : "(" + compiled.joined(separator: joinsWithAnd ? " AND " : " OR ") + ")"
        case .compare(let key, .notEqual, let literal, let caseInsensitive):
            return try compile(.compare(key: key, .equal, literal, caseInsensitive: caseInsensitive), negated: !negated)
        case .isNull(let key):
            let resolved = try layout.resolve(key, qualifier: qualifier)
            return "\(resolved.expression) IS \(negated ? "NOT " : "")NULL"
        case .textSearch(let text):
            let match = try fullTextMatch(text)
            return "\(qualifier).\(SQLName.rowID) \(negated ? "NOT " : "")IN (\(match))"
        default:
            let (test, key) = try atom(predicate)
            return negated ? "(\(key.expression) IS NULL OR NOT \(test))" : test
        }
    }

    /// A positive test that is false (never NULL-true) for absent values, and its key.
    private mutating func atom(_ predicate: Predicate) throws(RecordError) -> (String, ResolvedKey) {
        switch predicate {
        case .compare(let key, let op, let literal, let caseInsensitive):
            let resolved = try layout.resolve(key, qualifier: qualifier)
            try requireScalar(resolved, operation: op.rawValue)
            if op != .equal { try requireOrdered(resolved, operation: op.rawValue) }
            let sqlOperator = op == .equal ? "=" : op.rawValue
            return ("\(try operand(resolved, caseInsensitive)) \(sqlOperator) \(try bind(literal, resolved, caseInsensitive))", resolved)
        case .between(let key, let lower, let upper):
            let resolved = try layout.resolve(key, qualifier: qualifier)
            try requireOrdered(resolved, operation: "BETWEEN")
            return ("\(resolved.expression) BETWEEN \(try bind(lower, resolved)) AND \(try bind(upper, resolved))", resolved)
        case .in(let key, let literals, let caseInsensitive):
            let resolved = try layout.resolve(key, qualifier: qualifier)
            try requireScalar(resolved, operation: "IN")
            guard literals.count <= Limits.maximumInListCount else {
                throw RecordError(
                    .limitExceeded, "IN lists at most \(Limits.maximumInListCount) values; \(literals.count) were given", recordType: recordType, field: key)
            }
            guard !literals.isEmpty else { return ("0", resolved) }
            var placeholders: [String] = []
            for literal in literals {
                placeholders.append(try bind(literal, resolved, caseInsensitive))
            }
            return ("\(try operand(resolved, caseInsensitive)) IN (\(placeholders.joined(separator: ", ")))", resolved)
        case .beginsWith(let key, let prefix, let caseInsensitive):
            let resolved = try layout.resolve(key, qualifier: qualifier)
            if resolved.type == .list(.string) {
                return (try listMemberBeginsWith(resolved, prefix, caseInsensitive), resolved)
            }
            guard resolved.type == .string || resolved.type == .reference else {
                throw typeError(resolved, "BEGINSWITH applies to STRING and LIST<STRING> fields")
            }
            try ValueEncoding.checkNoNUL(prefix, field: key, in: recordType)
            let folded = caseInsensitive ? SQLFunctions.caseFolded(prefix) : prefix
            arguments.append((Self.globEscaped(folded) + "*").databaseValue)
            return ("\(try operand(resolved, caseInsensitive)) GLOB ?", resolved)
        case .contains(let key, let literal, let caseInsensitive):
            let resolved = try layout.resolve(key, qualifier: qualifier)
            if case .list(let element) = resolved.type {
                let item = element == .reference ? "element.value ->> '$.recordName'" : "element.value"
                let operand = caseInsensitive ? "shop_fold(\(item))" : item
                let elementKey = ResolvedKey(name: key, expression: item, type: element == .bytes ? .string : element)
                let placeholder = try bind(
                    try Self.listElementLiteral(literal, element: element, key: key, recordType: recordType), elementKey, caseInsensitive)
                return ("EXISTS (SELECT 1 FROM json_each(\(resolved.expression)) AS element WHERE \(operand) = \(placeholder))", resolved)
            }
            guard resolved.type == .string else { throw typeError(resolved, "CONTAINS applies to STRING and LIST fields") }
            return ("instr(\(try operand(resolved, caseInsensitive)), \(try bind(literal, resolved, caseInsensitive))) > 0", resolved)
        case .distance(let key, let origin, let op, let kilometres):
            let resolved = try layout.resolve(key, qualifier: qualifier)
            guard resolved.type == .location else { throw typeError(resolved, "distanceToLocation:fromLocation: applies to LOCATION fields") }
            guard origin.isValid, kilometres.isFinite else {
                throw RecordError(
                    .invalidArguments, "distanceToLocation:fromLocation: needs a valid location and a finite distance", recordType: recordType, field: key)
            }
            arguments += [origin.latitude.databaseValue, origin.longitude.databaseValue, kilometres.databaseValue]
            let sqlOperator = op == .equal ? "=" : op == .notEqual ? "<>" : op.rawValue
            return ("shop_distance(\(resolved.expression), ?, ?) \(sqlOperator) ?", resolved)
        case .all, .not, .and, .or, .isNull, .textSearch:
            preconditionFailure("compile(_:negated:) handles \(predicate)")
        }
    }

    /// `key BEGINSWITH 'prefix'` on a LIST<STRING> field: some element begins with the prefix
    /// (NSPredicate's `ANY key BEGINSWITH`, CloudKit's `LIST_MEMBER_BEGINS_WITH`).
    private mutating func listMemberBeginsWith(_ key: ResolvedKey, _ prefix: String, _ caseInsensitive: Bool) throws(RecordError) -> String {
        try ValueEncoding.checkNoNUL(prefix, field: key.name, in: recordType)
        let folded = caseInsensitive ? SQLFunctions.caseFolded(prefix) : prefix
        arguments.append((Self.globEscaped(folded) + "*").databaseValue)
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

    /// Appends the bound value of `literal` for `key` and returns its placeholder.
    private mutating func bind(_ literal: Predicate.Literal, _ key: ResolvedKey, _ caseInsensitive: Bool = false) throws(RecordError) -> String {
        var value = try LiteralBinding.bind(literal, to: key, type: key.type, recordType: recordType)
        if caseInsensitive, let text = String.fromDatabaseValue(value) {
            value = SQLFunctions.caseFolded(text).databaseValue
        }
        arguments.append(value)
        return "?"
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

    /// The FTS5 subquery selecting rowids whose SEARCHABLE fields contain every word of `text`.
    private mutating func fullTextMatch(_ text: String) throws(RecordError) -> String {
        guard !layout.recordType.searchableFieldNames.isEmpty else {
            throw RecordError(
                .schemaViolation,
                "\(recordType) has no SEARCHABLE field for self CONTAINS; mark a STRING field SEARCHABLE first",
                recordType: recordType
            )
        }
        let words = text.split { !$0.isLetter && !$0.isNumber }
        guard !words.isEmpty else {
            throw RecordError(.invalidArguments, "self CONTAINS needs at least one word to search for", recordType: recordType)
        }
        arguments.append(words.map { "\"" + $0.replacingOccurrences(of: "\"", with: "\"\"") + "\"" }.joined(separator: " ").databaseValue)
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
