/// The names of the change feed in every generated schema: the root field `changes`, its
/// arguments and the `ChangesPage` and `Change` object types.
extension GraphQLNames {
    static let changesField = "changes"
    static let sinceArgument = "since"
    static let recordTypesArgument = "recordTypes"
    static let changesPageType = "ChangesPage"
    static let changeType = "Change"

    /// Members of `ChangesPage`.
    static let pageChangesField = "changes"
    static let syncTokenField = "syncToken"
    static let moreComingField = "moreComing"

    /// Members of `Change`.
    static let changeRecordNameField = "recordName"
    static let changeRecordTypeField = "recordType"
    static let changeDeletedField = "deleted"
    static let changeRecordField = "record"

    /// The page size of `changes` given no `limit`.
    static let defaultChangesLimit = 100
}
