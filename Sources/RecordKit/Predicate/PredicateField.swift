import Foundation

/// The structured way to build a ``Predicate``: `PredicateField("list") == .reference(…)`.
///
/// ```swift
/// let predicate = PredicateField("list") == "L1" && PredicateField("number") >= 2
/// ```
public struct PredicateField: Sendable, Hashable {
    public var key: String

    public init(_ key: String) { self.key = key }

    public static func == (field: PredicateField, literal: Predicate.Literal) -> Predicate {
        .compare(key: field.key, .equal, literal)
    }
    public static func != (field: PredicateField, literal: Predicate.Literal) -> Predicate {
        .compare(key: field.key, .notEqual, literal)
    }
    public static func < (field: PredicateField, literal: Predicate.Literal) -> Predicate {
        .compare(key: field.key, .less, literal)
    }
    public static func <= (field: PredicateField, literal: Predicate.Literal) -> Predicate {
        .compare(key: field.key, .lessOrEqual, literal)
    }
    public static func > (field: PredicateField, literal: Predicate.Literal) -> Predicate {
        .compare(key: field.key, .greater, literal)
    }
    public static func >= (field: PredicateField, literal: Predicate.Literal) -> Predicate {
        .compare(key: field.key, .greaterOrEqual, literal)
    }

    /// Case-insensitive equality (`==[c]`).
    public func equalsIgnoringCase(_ text: String) -> Predicate {
        .compare(key: key, .equal, .string(text), caseInsensitive: true)
    }
    public func between(_ lower: Predicate.Literal, _ upper: Predicate.Literal) -> Predicate {
        .between(key: key, lower: lower, upper: upper)
    }
    public func isIn(_ literals: [Predicate.Literal], caseInsensitive: Bool = false) -> Predicate {
        .in(key: key, literals, caseInsensitive: caseInsensitive)
    }
    public func beginsWith(_ prefix: String, caseInsensitive: Bool = false) -> Predicate {
        .beginsWith(key: key, prefix, caseInsensitive: caseInsensitive)
    }
    public func contains(_ literal: Predicate.Literal, caseInsensitive: Bool = false) -> Predicate {
        .contains(key: key, literal, caseInsensitive: caseInsensitive)
    }
    /// The field is absent (`== nil`).
    public var isNull: Predicate { .isNull(key: key) }
    /// The field is present (`!= nil`).
    public var isNotNull: Predicate { .not(.isNull(key: key)) }
    /// Within `kilometres` of `location`.
    public func within(kilometres: Double, of location: Location) -> Predicate {
        .distance(key: key, from: location, .less, kilometres: kilometres)
    }
}

extension Predicate.Literal: ExpressibleByStringLiteral, ExpressibleByIntegerLiteral,
    ExpressibleByFloatLiteral, ExpressibleByBooleanLiteral
{
    public init(stringLiteral value: String) { self = .string(value) }
    public init(integerLiteral value: Int64) { self = .integer(value) }
    public init(floatLiteral value: Double) { self = .double(value) }
    public init(booleanLiteral value: Bool) { self = .bool(value) }
}
