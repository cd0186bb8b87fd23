/// The shape of the JSON object a JSON aggregate query builds over a set of records
/// (``RecordTransaction/compileAggregateJSON(_:aggregation:)``, and
/// ``Projection/MemberValue/aggregate(recordType:field:predicate:_:)`` for the records referring
/// to each projected one): which aggregates, under which keys, in order. For example
/// `{"count": 3, "sum": {"number": 6}, "max": {"number": 4}}`.
///
/// As SQL has them: `count` counts records; `sum`, `avg`, `min` and `max` leave out records
/// without a value, and are `null` when no record has one (an empty set included). `sum` takes
/// INT64, DOUBLE and NUMBER fields; `avg`, `min` and `max` TIMESTAMP fields as well (`avg` of
/// a TIMESTAMP is the mean time). Sums of INT64 values are integers and fail with
/// `limitExceeded` past the range of INT64; averages are doubles. Field names are checked
/// against the schema before any SQL is written; keys are bound.
public struct Aggregation: Sendable, Hashable {
    public var members: [Member]

    public init(_ members: [Member]) {
        self.members = members
    }

    /// One key of the object and what goes under it.
    public typealias Member = JSONMember<MemberValue>

    /// What a member holds.
    public enum MemberValue: Sendable, Hashable {
        /// The number of records.
        case count
        /// An object of `function` over each of the fields, under their keys.
        case function(Function, [FieldMember])
        /// A constant string (GraphQL's `__typename`).
        case constant(String)
    }

    public enum Function: String, Sendable, Hashable, CaseIterable {
        case sum, avg, min, max

        /// Whether the function applies to values of `type`.
        public func applies(to type: FieldType) -> Bool {
            switch type {
            case .int64, .double, .number: true
            case .timestamp: self != .sum
            default: false
            }
        }
    }

    /// One key of a function's object and what goes under it.
    public typealias FieldMember = JSONMember<FieldValue>

    /// What a member of a function's object holds: a field's aggregate, or a constant (`__typename`).
    public enum FieldValue: Sendable, Hashable {
        case field(String)
        case constant(String)
    }
}
