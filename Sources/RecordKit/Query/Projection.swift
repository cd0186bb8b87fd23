/// The shape of the JSON object built for each record by the JSON queries
/// (``RecordTransaction/json(_:projection:)``): which members, under which keys, in order.
///
/// It is how the query language asks for exactly what a GraphQL selection names — aliases,
/// nested references, referring records — and gets the response built inside SQLite in one
/// statement, nested parts as correlated subqueries (`json_object`, `json_group_array`).
/// Field names are checked against the schema before any SQL is written; values are bound.
///
/// JSON encodings: STRING as a string; INT64, DOUBLE, NUMBER as numbers (doubles in Swift's
/// shortest round-trip form); TIMESTAMP as ISO-8601 text with milliseconds (`…T09:25:00.123Z`);
/// BYTES as base64; LOCATION and ASSET as objects of the members asked; LIST as an array;
/// absent values as `null`.
public struct Projection: Sendable, Hashable {
    public var members: [Member]

    public init(_ members: [Member]) {
        self.members = members
    }

    /// One key of the object and what goes under it.
    public typealias Member = JSONMember<MemberValue>

    /// What a member holds.
    public indirect enum MemberValue: Sendable, Hashable {
        case recordName
        case recordType
        case createdAt
        case modifiedAt
        case changeTag
        /// A constant string (GraphQL's `__typename`).
        case constant(String)
        /// A schema field's value in the encoding of its type. For LOCATION and ASSET fields this
        /// is the whole object (`{"latitude","longitude",…}` with the members present, `{"size","sha256"}`); a LIST<REFERENCE>
        /// is an array of recordNames.
        case field(String)
        /// Chosen members of a LOCATION or ASSET field (or of each element of a list of them).
        case parts(field: String, [Part])
        /// The record a REFERENCE field points at, projected by its record type (one entry for a
        /// field whose ``FieldDefinition/referencedType`` is declared; any record types for an
        /// untyped one); `null` when the field is absent or the reference dangles. For a
        /// LIST<REFERENCE> field, an array of them in list order (dangling ones as `null`).
        case reference(field: String, [String: Projection])
        /// The records of `recordType` whose REFERENCE (or LIST<REFERENCE>) field `field` points
        /// at this record, filtered, sorted and limited like a query, as an array.
        case referrers(recordType: String, field: String, predicate: Predicate, sort: [SortDescriptor], limit: Int?, Projection)
        /// The aggregates of the records of `recordType` whose REFERENCE (or LIST<REFERENCE>)
        /// field `field` points at this record and that match `predicate`, as an object.
        case aggregate(recordType: String, field: String, predicate: Predicate, Aggregation)
    }

    /// One member of a LOCATION or ASSET value.
    public typealias Part = JSONMember<PartValue>

    /// What a member of a LOCATION or ASSET value holds.
    public enum PartValue: Sendable, Hashable {
        case latitude, longitude, size, sha256
        /// A member of a LOCATION beside its coordinates, `null` when the value has none; a time
        /// as ISO-8601 text.
        case locationDetail(Location.Detail)
        case constant(String)
    }
}
