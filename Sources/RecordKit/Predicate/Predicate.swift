/// A query condition: the one AST that both the NSPredicate-format parser (``PredicateParser``)
/// and the structured builder (``PredicateField``) produce, and that ``PredicateCompiler`` turns into
/// SQL with bound values only.
///
/// Keys name schema fields or the system fields `recordName` (alias `recordID`), `createdAt`
/// (alias `creationDate`), `modifiedAt` (alias `modificationDate`), and `___createdBy` and
/// `___modifiedBy` (user record names; ``AccessPolicy/ownerRecordName`` for the owner). Literals stay untyped
/// until compiled against the schema, where each is checked against the field's type.
public indirect enum Predicate: Sendable, Hashable {
    /// Matches every record (`TRUEPREDICATE`).
    case all
    /// `key op literal`; `caseInsensitive` is the `[c]` option (strings only).
    case compare(key: String, ComparisonOperator, Literal, caseInsensitive: Bool = false)
    /// `key BETWEEN {lower, upper}`, both ends included.
    case between(key: String, lower: Literal, upper: Literal)
    /// `key IN {a, b, …}`.
    case `in`(key: String, [Literal], caseInsensitive: Bool = false)
    /// `key BEGINSWITH 'prefix'`.
    case beginsWith(key: String, String, caseInsensitive: Bool = false)
    /// `key CONTAINS literal`: element membership for LIST fields, substring for STRING fields.
    case contains(key: String, Literal, caseInsensitive: Bool = false)
    /// `key == nil`: the field is absent.
    case isNull(key: String)
    /// `distanceToLocation:fromLocation:(key, lat, lon) op kilometres`.
    case distance(key: String, from: Location, ComparisonOperator, kilometres: Double)
    /// `self CONTAINS 'words'`: full-text search over the SEARCHABLE fields; every word must match.
    case textSearch(String)
    case not(Predicate)
    case and([Predicate])
    case or([Predicate])

    /// Comparison operators of NSPredicate format.
    public enum ComparisonOperator: String, Sendable, Hashable, CaseIterable {
        case equal = "=="
        case notEqual = "!="
        case less = "<"
        case lessOrEqual = "<="
        case greater = ">"
        case greaterOrEqual = ">="
    }

    /// An untyped literal as written, or a typed ``Value`` from the builder.
    public enum Literal: Sendable, Hashable, CustomStringConvertible {
        case string(String)
        case integer(Int64)
        case double(Double)
        /// `TRUE`/`FALSE`; CloudKit stores booleans as INT64 1 and 0.
        case bool(Bool)
        case value(Value)

        /// The literal as NSPredicate text (strings quoted and escaped).
        public var description: String { Predicate.format(self) }
    }
}

extension Predicate {
    /// `lhs AND rhs`, flattening nested ANDs.
    public static func && (lhs: Predicate, rhs: Predicate) -> Predicate {
        switch (lhs, rhs) {
        case (.all, _): rhs
        case (_, .all): lhs
        case (.and(let left), .and(let right)): .and(left + right)
        case (.and(let left), _): .and(left + [rhs])
        case (_, .and(let right)): .and([lhs] + right)
        default: .and([lhs, rhs])
        }
    }

    /// `lhs OR rhs`, flattening nested ORs.
    public static func || (lhs: Predicate, rhs: Predicate) -> Predicate {
        switch (lhs, rhs) {
        case (.or(let left), .or(let right)): .or(left + right)
        case (.or(let left), _): .or(left + [rhs])
        case (_, .or(let right)): .or([lhs] + right)
        default: .or([lhs, rhs])
        }
    }

    /// `NOT predicate`.
    public static prefix func ! (predicate: Predicate) -> Predicate { .not(predicate) }
}
