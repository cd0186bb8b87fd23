import RecordKit

/// The names the generated GraphQL schema gives to each stored record type, its fields and
/// its referring records, after name clashes are resolved — and the way back, from a GraphQL
/// name to what it means, for executing selections.
///
/// Names follow ``GraphQLNames`` (`T`, `TFilter`, `TPage`, `createT`, referrers `S` or `S_f`)
/// unless that name is already taken, in which case `_` is appended until it is free. Nothing
/// is ever refused: record types and fields cannot be renamed or removed (schema evolution is
/// additive), so a clash must not make a database unqueryable. Who keeps the plain name:
///
/// - **Type names**: GraphQL's own (`String`, `Int`, `Float`, `Boolean`, `ID`) and the shared
///   ones (`Query`, `Mutation`, `Record`, `Int64`, `Timestamp`, `Bytes`, `Location`,
///   `LocationInput`, `Asset`, `ReferenceInput`, `ReferenceAction`, `SortDirection`,
///   `DeleteResult`, `DistanceFilter` and the operator inputs `StringFilter`, `Int64ListFilter`, …)
///   come first, so a record type `Location` is exposed as object `Location_`. Then each record
///   type's object type: its own name when free. Then the derived names, built from the object
///   name (`Location_Filter`, `Location_Page`, …), record types in name order; so with types
///   `Items` and `ItemsPage`, the page type of `Items` is `ItemsPage_`.
/// - **Query fields**: `asset` first, then each type's list field, then the page fields; with
///   `Items` and `ItemsPage` the page field of `Items` is `ItemsPage_`. Mutation fields
///   (`createT`, `updateT`, `deleteT`, `createManyT`, `updateManyT`, `deleteManyT`) are
///   derived from the object name, and so are the element types `TCreate` and `TUpdate`.
/// - **A user field** has one name, used on the object type and in `TFilter`, `TSort` and `TInput`:
///   its own, unless it is a system field (`recordName`, `recordType`, `createdAt`,
///   `modifiedAt`, `changeTag`) or a `TFilter` key (`search`, `AND`, `OR`, `NOT`), in which case
///   it is `name_` (after every field whose own name is free has kept it).
/// - **Referrers fields** (`Lists { Items }`) come after the user fields: `S`, or `S_f` when `S`
///   has several reference fields pointing at the type (an untyped reference field points at
///   every type), renamed with `_` when a system or user field has the name; then their
///   aggregate fields, `SAggregate` (or `S_fAggregate`), renamed the same way.
/// - **Aggregates**: the query field `TAggregate` comes after the page fields; its object
///   types `TAggregate`, `TSumFields`, `TAvgFields` and `TMinMaxFields` after `TPage`.
/// - User fields named like a key RecordKit resolves to a system field (`recordName`,
///   `recordID`, `createdAt`, `creationDate`, `modifiedAt`, `modificationDate`) are shown and
///   writable, but left out of `TFilter` and `TSort`: a predicate on that key would test the
///   system field.
///
/// CloudKit's own record types (`cloudkit.share`) store no records and get no names.
public struct GraphQLNameMap: Sendable, Hashable {
    /// The names of one record type.
    public struct RecordTypeNames: Sendable, Hashable {
        public let recordType: String
        public let objectType: String
        public let filterType: String
        public let sortType: String
        public let inputType: String
        public let pageType: String
        public let listField: String
        public let pageField: String
        /// `TAggregate(where:, predicate:)` and its object types (``GraphQLNames/aggregateType(_:)``).
        public let aggregateField: String
        public let aggregateType: String
        public let sumFieldsType: String
        public let avgFieldsType: String
        public let minMaxFieldsType: String
        public let createField: String
        public let updateField: String
        public let deleteField: String
        /// The list forms of the mutations and the element types of their `records:`.
        public let createManyField: String
        public let updateManyField: String
        public let deleteManyField: String
        public let createInputType: String
        public let updateInputType: String
        /// The GraphQL name of each user field, keyed by field name.
        public let fields: [String: String]
        /// The referrers fields of the object type, in order.
        public let referrers: [Referrers]

        /// The user field whose GraphQL name is `graphQLName`.
        public func field(named graphQLName: String) -> String? {
            fieldsByGraphQLName[graphQLName]
        }

        let fieldsByGraphQLName: [String: String]
    }

    /// A field listing the records of `recordType` whose `field` references the record.
    public struct Referrers: Sendable, Hashable {
        public let name: String
        /// The field of the aggregates of the same records (`ItemsAggregate` beside `Items`).
        public let aggregateName: String
        public let recordType: String
        public let field: String
    }

    /// What a field of the query root is.
    public enum QueryField: Sendable, Hashable {
        case list(recordType: String)
        case page(recordType: String)
        case aggregate(recordType: String)
        case asset
        case changes
    }

    /// What a field of the mutation root is.
    public enum MutationField: Sendable, Hashable {
        case create(recordType: String)
        case update(recordType: String)
        case delete(recordType: String)
        case createMany(recordType: String)
        case updateMany(recordType: String)
        case deleteMany(recordType: String)

        /// The record type the mutation writes.
        public var recordType: String {
            switch self {
            case .create(let name), .update(let name), .delete(let name), .createMany(let name), .updateMany(let name), .deleteMany(let name): name
            }
        }
    }

    /// What a field of a record's object type is.
    public enum ObjectField: Sendable, Hashable {
        case recordName, recordType, createdAt, modifiedAt, changeTag
        /// A user field, by its schema name.
        case field(String)
        /// The records of `recordType` whose `field` references this record.
        case referrers(recordType: String, field: String)
        /// The aggregates of those records.
        case referrersAggregate(recordType: String, field: String)
    }

    /// The names of every stored record type, by record type name.
    public let recordTypes: [String: RecordTypeNames]
    let recordTypesByObjectType: [String: String]
    let queryFields: [String: QueryField]
    let mutationFields: [String: MutationField]

    /// The names of `recordType`, `nil` for an unknown or CloudKit system type.
    public subscript(recordType: String) -> RecordTypeNames? { recordTypes[recordType] }

    /// The record type whose object type is named `objectType`.
    public func recordType(ofObjectType objectType: String) -> String? {
        recordTypesByObjectType[objectType]
    }

    /// What the query root field `name` is.
    public func queryField(_ name: String) -> QueryField? { queryFields[name] }

    /// What the mutation root field `name` is.
    public func mutationField(_ name: String) -> MutationField? { mutationFields[name] }

    /// What field `name` of the object type `objectType` is.
    public func objectField(_ name: String, ofObjectType objectType: String) -> ObjectField? {
        guard let recordType = recordTypesByObjectType[objectType], let names = recordTypes[recordType] else { return nil }
        switch name {
        case "recordName": return .recordName
        case "recordType": return .recordType
        case "createdAt": return .createdAt
        case "modifiedAt": return .modifiedAt
        case "changeTag": return .changeTag
        default: break
        }
        if let field = names.field(named: name) { return .field(field) }
        if let referrers = names.referrers.first(where: { $0.name == name }) {
            return .referrers(recordType: referrers.recordType, field: referrers.field)
        }
        return names.referrers.first { $0.aggregateName == name }.map { .referrersAggregate(recordType: $0.recordType, field: $0.field) }
    }
}
