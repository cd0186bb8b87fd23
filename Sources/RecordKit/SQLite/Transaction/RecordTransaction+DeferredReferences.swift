extension RecordTransaction {
    /// A reference written before its target: checked when the batch ends.
    struct PendingTarget {
        var reference: Reference
        var field: FieldDefinition
        var recordType: String
        /// The record holding the reference.
        var referrer: String
    }

    /// Runs `body`, a batch of writes, checking references whose target does not exist yet when
    /// it ends instead of when each is written: a batch (an import, an exported file read back)
    /// may save a record before the record it references with DELETE_SELF. Then a target still
    /// missing fails as it would have at once, naming the record holding the reference, and a
    /// declared referenced type is checked on the target made since. Called inside one already,
    /// it runs `body` in it.
    public func deferringReferenceChecks<T>(_ body: () throws -> T) throws -> T {
        guard pendingTargets == nil else { return try body() }
        pendingTargets = []
        defer { pendingTargets = nil }
        let result = try body()
        let pending = pendingTargets ?? []
        pendingTargets = nil
        for target in pending {
            // A referrer deleted since holds nothing any more.
            guard try locate(target.referrer) != nil else { continue }
            guard try locate(target.reference.recordName) != nil || target.reference.action != .deleteSelf else {
                throw RecordError(
                    .referenceViolation,
                    "\(target.recordType).\(target.field.name) of '\(target.referrer)' is a DELETE_SELF reference to '\(target.reference.recordName)', which neither exists nor is saved in the same batch; save that record too or use action NONE",
                    recordType: target.recordType, field: target.field.name, recordName: target.referrer
                )
            }
            try checkTarget(of: target.reference, field: target.field, in: target.recordType, from: target.referrer)
        }
        return result
    }
}
