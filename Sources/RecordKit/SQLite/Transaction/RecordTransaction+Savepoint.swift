import GRDB

extension RecordTransaction {
    /// Runs `body` as one undoable step of this transaction: when it throws, everything it did
    /// is undone (a SQLite savepoint; the change log, the schema and the cache of known names
    /// restored) and the error is rethrown, while what the transaction did before still stands.
    /// A batch whose operations may fail one by one (CloudKit's non-atomic `records/modify`) runs
    /// each in a step.
    public func undoingOnFailure<T>(_ body: () throws -> T) throws -> T {
        let logBefore = changeLog
        let schemaBefore = snapshot
        let pendingBefore = pendingTargets
        var outcome: Result<T, any Error>?
        try db.inSavepoint {
            do {
                outcome = .success(try body())
                return .commit
            } catch {
                outcome = .failure(error)
                return .rollback
            }
        }
        guard let outcome else { preconditionFailure("inSavepoint ran its body") }
        if case .failure = outcome {
            changeLog = logBefore
            snapshot = schemaBefore
            pendingTargets = pendingBefore
            forgetKnownRecordNames()
        }
        return try outcome.get()
    }
}
