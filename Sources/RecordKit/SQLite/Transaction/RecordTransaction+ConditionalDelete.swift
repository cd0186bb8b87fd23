extension RecordTransaction {
    /// Deletes the record named `recordName` and its DELETE_SELF dependents, as
    /// ``delete(recordName:)`` does, when its change tag is still `ifChangeTag`; with another
    /// tag it fails with `serverRecordChanged` and deletes nothing. Returns the deleted record's
    /// type and every recordName removed, the record itself first.
    public func delete(recordName: String, ifChangeTag: String?) throws -> (recordType: String, deleted: [String]) {
        guard let location = try locate(recordName), try mayRead(recordName, of: location.recordType) else {
            throw RecordError(.unknownItem, "there is no record named '\(recordName)' to delete", recordName: recordName)
        }
        if let ifChangeTag, ifChangeTag != location.changeTag {
            throw RecordError(
                .serverRecordChanged,
                "\(location.recordType) '\(recordName)' was changed since change tag \(ifChangeTag) (it is now \(location.changeTag)); fetch it again and retry the delete",
                recordType: location.recordType, recordName: recordName
            )
        }
        return (location.recordType, try delete(recordName: recordName))
    }
}
