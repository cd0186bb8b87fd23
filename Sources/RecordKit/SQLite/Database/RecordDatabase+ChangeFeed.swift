public import Foundation

/// The change feed (``ChangePage``) and the pruning that keeps its log bounded
/// (``RecordTransaction/pruneChanges(through:)``).
extension RecordDatabase {
    /// One page of the change feed, read in one read transaction.
    ///
    /// - Throws: ``RecordError`` `invalidArguments` for a limit below 1 or, with reason
    ///   ``RecordError/Reason/changeTokenExpired``, for a token the log can no longer serve.
    public func changePage(_ request: ChangeFeedRequest) throws(RecordError) -> ChangePage {
        try performRead { try $0.changePage(request) }
    }

    /// The async twin of ``changePage(_:)``, run on the database's own threads.
    public func changePage(_ request: ChangeFeedRequest) async throws(RecordError) -> ChangePage {
        try await recordErrors { try await read { try $0.changePage(request) } }
    }

    /// The floor of the change log: tokens below it have expired; 0 while nothing was pruned.
    public func changeLogFloor() throws(RecordError) -> Int64 {
        try performRead { try $0.changeLogFloor() }
    }

    /// Prunes the change log at and below `sequence` (never its last entry) and raises its
    /// floor there, in one write transaction; returns the number of entries removed.
    @discardableResult
    public func pruneChanges(through sequence: Int64) throws(RecordError) -> Int {
        try performWrite { try $0.pruneChanges(through: sequence) }
    }

    /// Prunes the change log of the entries logged before `cutoff` (``pruneChanges(through:)``):
    /// a token issued before then may have expired, a newer one has not.
    @discardableResult
    public func pruneChanges(olderThan cutoff: Date) throws(RecordError) -> Int {
        try performWrite { transaction in
            let sequence = try transaction.lastChangeSequence(atOrBefore: Timestamp.milliseconds(cutoff) - 1)
            return try transaction.pruneChanges(through: sequence)
        }
    }
}
