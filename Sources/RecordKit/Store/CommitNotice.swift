/// What one or more committed write transactions of a database touched: told to the
/// subscribers of ``RecordStore/commitNotices()`` after the commit, never for a transaction
/// that rolled back.
///
/// Each zone is a database of its own (``RecordDatabase/zone(_:)``), so a notice is about the
/// records of the zone whose database sent it.
public struct CommitNotice: Sendable, Hashable {
    /// The record types whose records were saved or deleted; `nil` when unknown (a commit by
    /// another process whose log entries are gone already): anything may have changed.
    public var recordTypes: Set<String>?

    public init(recordTypes: Set<String>?) {
        self.recordTypes = recordTypes
    }

    /// Whether records of any of `types` may have changed.
    public func touches(_ types: Set<String>) -> Bool {
        guard let recordTypes else { return true }
        return !recordTypes.isDisjoint(with: types)
    }

    /// This notice and `other` as one: the commits of both.
    public func merged(with other: CommitNotice) -> CommitNotice {
        guard let mine = recordTypes, let theirs = other.recordTypes else { return CommitNotice(recordTypes: nil) }
        return CommitNotice(recordTypes: mine.union(theirs))
    }
}
