internal import GRDB

/// One value a predicate tests with: a literal, the text of a `BEGINSWITH` or a full-text search,
/// or the origin and distance of a location test.
///
/// ``Predicate/parameterized(into:)`` lists a predicate's values leaf by leaf from the left, the
/// order in which ``PredicateCompiler`` binds them, and gives the predicate's shape: the same
/// predicate with every value replaced by a placeholder. Predicates of one shape compile to the
/// same SQL, so a query compiled once is bound again with another query's values
/// (``CompiledQuery/rebound(to:)``) instead of being compiled again.
enum QueryParameter: Sendable {
    case literal(Predicate.Literal)
    case text(String)
    case location(Location, kilometres: Double)

    /// The literal this parameter holds; `internalError` when a predicate of the same shape
    /// holds something else at its place (which would be a fault of the shape, never of input).
    func literal() throws(RecordError) -> Predicate.Literal {
        guard case .literal(let literal) = self else { throw Self.misplaced(self) }
        return literal
    }

    /// The text this parameter holds (``literal()``'s rules).
    func text() throws(RecordError) -> String {
        guard case .text(let text) = self else { throw Self.misplaced(self) }
        return text
    }

    /// The origin and distance this parameter holds (``literal()``'s rules).
    func location() throws(RecordError) -> (origin: Location, kilometres: Double) {
        guard case .location(let origin, let kilometres) = self else { throw Self.misplaced(self) }
        return (origin, kilometres)
    }

    private static func misplaced(_ parameter: QueryParameter) -> RecordError {
        RecordError(.internalError, "a compiled query was bound with a value of another kind (\(parameter)) at one of its places")
    }
}

/// How one argument of a compiled statement is made: fixed, or from the parameter at an index
/// of the predicate compiled (``QueryParameter``), by the same code whether the query is compiled
/// now or bound again.
enum ArgumentBinding: Sendable {
    case constant(DatabaseValue)
    case parameter(Int, @Sendable (QueryParameter) throws(RecordError) -> DatabaseValue)

    /// This argument's value among `parameters`.
    func value(in parameters: [QueryParameter]) throws(RecordError) -> DatabaseValue {
        switch self {
        case .constant(let value):
            return value
        case .parameter(let index, let make):
            guard parameters.indices.contains(index) else {
                throw RecordError(.internalError, "a compiled query was bound with \(parameters.count) values where it has a place for more")
            }
            return try make(parameters[index])
        }
    }
}

extension Predicate {
    /// This predicate's shape, its values appended to `parameters` leaf by leaf from the left
    /// (``QueryParameter``). An `IN` keeps the number of its values: it is part of the SQL.
    func parameterized(into parameters: inout [QueryParameter]) -> Predicate {
        let placeholder = Literal.integer(0)
        switch self {
        case .all, .isNull:
            return self
        case .compare(let key, let op, let literal, let caseInsensitive):
            parameters.append(.literal(literal))
            return .compare(key: key, op, placeholder, caseInsensitive: caseInsensitive)
        case .between(let key, let lower, let upper):
            parameters += [.literal(lower), .literal(upper)]
            return .between(key: key, lower: placeholder, upper: placeholder)
        case .in(let key, let literals, let caseInsensitive):
            parameters += literals.map(QueryParameter.literal)
            return .in(key: key, Array(repeating: placeholder, count: literals.count), caseInsensitive: caseInsensitive)
        case .beginsWith(let key, let prefix, let caseInsensitive):
            parameters.append(.text(prefix))
            return .beginsWith(key: key, "", caseInsensitive: caseInsensitive)
        case .contains(let key, let literal, let caseInsensitive):
            parameters.append(.literal(literal))
            return .contains(key: key, placeholder, caseInsensitive: caseInsensitive)
        case .distance(let key, let origin, let op, let kilometres):
            parameters.append(.location(origin, kilometres: kilometres))
            return .distance(key: key, from: Location(latitude: 0, longitude: 0), op, kilometres: 0)
        case .textSearch(let text):
            parameters.append(.text(text))
            return .textSearch("")
        case .not(let inner):
            return .not(inner.parameterized(into: &parameters))
        case .and(let parts):
            return .and(parts.map { $0.parameterized(into: &parameters) })
        case .or(let parts):
            return .or(parts.map { $0.parameterized(into: &parameters) })
        }
    }
}
