import RecordKit

/// The names the generated GraphQL schema gives to what a record type `T` brings
/// (the README's query language section). One place, so that schema generation and execution agree.
///
/// These are the preferred names; ``GraphQLNameMap`` holds the names a generated schema
/// actually uses, with clashes (a record type named `Location`, a field named `changeTag`)
/// resolved, and maps them back.
enum GraphQLNames {
    /// The object type of records of `T`: `T` itself.
    static func objectType(_ recordType: String) -> String { recordType }
    /// `TFilter`, the `where:` input.
    static func filterType(_ recordType: String) -> String { "\(recordType)Filter" }
    /// `TSort`, one element of the `sort:` list.
    static func sortType(_ recordType: String) -> String { "\(recordType)Sort" }
    /// `TInput`, the `fields:` input of create and update mutations.
    static func inputType(_ recordType: String) -> String { "\(recordType)Input" }
    /// `TPage`, the object returned by the page field.
    static func pageType(_ recordType: String) -> String { "\(recordType)Page" }

    /// `TAggregate`, the object of aggregates over records of `T`, and the objects of its
    /// `sum`, `avg` and `min`/`max` members.
    static func aggregateType(_ recordType: String) -> String { "\(recordType)Aggregate" }
    static func sumFieldsType(_ recordType: String) -> String { "\(recordType)SumFields" }
    static func avgFieldsType(_ recordType: String) -> String { "\(recordType)AvgFields" }
    static func minMaxFieldsType(_ recordType: String) -> String { "\(recordType)MinMaxFields" }

    /// The query field listing records of `T`: `T`.
    static func listField(_ recordType: String) -> String { recordType }
    /// The query field returning one page of `T`: `TPage`.
    static func pageField(_ recordType: String) -> String { "\(recordType)Page" }
    /// The query field aggregating records of `T`: `TAggregate`; a referrers field `S` gets
    /// `SAggregate` beside it.
    static func aggregateField(_ name: String) -> String { "\(name)Aggregate" }
    static func createField(_ recordType: String) -> String { "create\(recordType)" }
    static func updateField(_ recordType: String) -> String { "update\(recordType)" }
    static func deleteField(_ recordType: String) -> String { "delete\(recordType)" }
    /// The list forms of the mutations, so a batch rides in one variable.
    static func createManyField(_ recordType: String) -> String { "createMany\(recordType)" }
    static func updateManyField(_ recordType: String) -> String { "updateMany\(recordType)" }
    static func deleteManyField(_ recordType: String) -> String { "deleteMany\(recordType)" }
    /// `TCreate` and `TUpdate`: one element of `createManyT(records:)` and `updateManyT(records:)`,
    /// holding the arguments of `createT` and `updateT`.
    static func createInputType(_ recordType: String) -> String { "\(recordType)Create" }
    static func updateInputType(_ recordType: String) -> String { "\(recordType)Update" }

    /// The field of the referenced type listing the records of `referring` whose field `field`
    /// points at it: `S`, or `S_f` when `S` has several reference fields to that type.
    static func referrersField(referring: String, field: String, isAmbiguous: Bool) -> String {
        isAmbiguous ? "\(referring)_\(field)" : referring
    }

    /// The system fields every object type starts with, in order.
    static let systemFields = ["recordName", "recordType", "createdAt", "modifiedAt", "changeTag"]

    /// Shared types.
    static let int64Scalar = "Int64"
    static let timestampScalar = "Timestamp"
    static let bytesScalar = "Bytes"
    static let locationType = "Location"
    static let locationInputType = "LocationInput"
    static let assetType = "Asset"
    static let referenceInputType = "ReferenceInput"
    static let referenceActionEnum = "ReferenceAction"
    static let sortDirectionEnum = "SortDirection"
    static let deleteResultType = "DeleteResult"
    /// `requireUnchanged(records: [RecordVersionInput!]!)`: a mutation's precondition on
    /// change tags (``RecordOperation/requireUnchanged(recordName:changeTag:)``).
    static let requireUnchangedField = "requireUnchanged"
    static let recordVersionInputType = "RecordVersionInput"
    static let changeTagField = "changeTag"
    /// The interface every object type implements; untyped REFERENCE fields resolve to it.
    static let recordInterface = "Record"
    /// `asset(sha256:)`: the content of an asset, base64.
    static let assetField = "asset"
    /// `mutation @transaction(id: "…")`.
    static let transactionDirective = "transaction"
    static let transactionIDArgument = "id"

    /// Root operation types.
    static let queryType = "Query"
    static let mutationType = "Mutation"
    /// Live queries: the query root's fields, each answered again after commits that touch it.
    static let subscriptionType = "Subscription"

    /// Arguments of the list, page and referrers fields.
    static let whereArgument = "where"
    static let predicateArgument = "predicate"
    static let sortArgument = "sort"
    static let limitArgument = "limit"
    static let afterArgument = "after"
    /// Arguments of mutations and of `asset`.
    static let recordNameArgument = "recordName"
    static let fieldsArgument = "fields"
    static let ifChangeTagArgument = "ifChangeTag"
    static let sha256Argument = "sha256"
    /// Arguments of the list forms of the mutations.
    static let recordsArgument = "records"
    static let recordNamesArgument = "recordNames"

    /// Members of `TAggregate`.
    static let countField = "count"

    /// Members of `TPage` and `DeleteResult`.
    static let pageRecordsField = "records"
    static let pageCursorField = "cursor"
    static let deletedField = "deleted"

    /// Keys of `TFilter` besides the user fields: the system keys, full-text search, logic.
    static let filterSystemKeys = ["recordName", "createdAt", "modifiedAt"]
    static let searchKey = "search"
    static let andKey = "AND"
    static let orKey = "OR"
    static let notKey = "NOT"
    /// The keys RecordKit's predicates and sort descriptors resolve to system fields, aliases
    /// included (``Predicate``): a user field so named cannot be filtered or sorted on by name,
    /// so `TFilter` and `TSort` leave it out.
    static let predicateSystemKeys: Set = ["recordName", "recordID", "createdAt", "creationDate", "modifiedAt", "modificationDate"]
    /// The keys `TSort` has besides the sortable user fields.
    static let sortSystemKeys = filterSystemKeys

    /// The operator input of a filter kind: `StringFilter`, `Int64ListFilter`, `RecordNameFilter`.
    static func operatorFilterType(_ operand: String, isList: Bool = false) -> String {
        isList ? "\(operand)ListFilter" : "\(operand)Filter"
    }
    /// `LOCATION` filters: `distance: DistanceFilter`.
    static let distanceFilterType = "DistanceFilter"

    /// Names GraphQL itself defines.
    static let builtInTypes = ["String", "Int", "Float", "Boolean", "ID"]
    /// The shared type names every generated schema may use; record types never take them
    /// (see ``GraphQLNameMap``). Operator inputs are added by ``FilterKind``.
    static let sharedTypes =
        builtInTypes + [
            queryType, mutationType, subscriptionType, recordInterface, int64Scalar, timestampScalar, bytesScalar,
            locationType, locationInputType, assetType, referenceInputType, referenceActionEnum,
            sortDirectionEnum, deleteResultType, recordVersionInputType, distanceFilterType, changesPageType, changeType,
        ]
}
