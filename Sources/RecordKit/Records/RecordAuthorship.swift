/// Who created and last modified each of some records (CloudKit's `created.userRecordName` and
/// `modified.userRecordName`), as ``RecordTransaction/authors(of:)-([String])`` read them
/// together: user record names, ``AccessPolicy/ownerRecordName`` for the owner.
public struct RecordAuthorship: Sendable {
    /// The users recorded, by recordName; a record missing, or a `nil`, is the owner's.
    let recorded: [String: (createdBy: String?, modifiedBy: String?)]

    /// The creator and last modifier of `recordName`.
    public func of(_ recordName: String) -> (createdBy: String, modifiedBy: String) {
        let authors = recorded[recordName]
        return (authors?.createdBy ?? AccessPolicy.ownerRecordName, authors?.modifiedBy ?? AccessPolicy.ownerRecordName)
    }
}
