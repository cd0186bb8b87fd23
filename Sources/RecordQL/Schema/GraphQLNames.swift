import RecordKit

/// The names the generated GraphQL schema gives to what a record type `T` brings
/// (DESIGN.md §6). One place, so that schema generation and execution agree.
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

    /// The query field listing records of `T`: `T`.
    static func listField(_ recordType: String) -> String { recordType }
    /// The query field returning one page of `T`: `TPage`.
    static func pageField(_ recordType: String) -> String { "\(recordType)Page" }
    static func createField(_ recordType: String) -> String { "create\(recordType)" }
    static func updateField(_ recordType: String) -> String { "update\(recordType)" }
    static func deleteField(_ recordType: String) -> String { "delete\(recordType)" }

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
    /// The interface every object type implements; untyped REFERENCE fields resolve to it.
    static let recordInterface = "Record"
    /// `asset(sha256:)`: the content of an asset, base64.
    static let assetField = "asset"
    /// `mutation @transaction(id: "…")`.
    static let transactionDirective = "transaction"
}
