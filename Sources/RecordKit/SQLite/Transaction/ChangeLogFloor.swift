internal import GRDB

/// The floor of the change log: the sequence number at and below which the log was pruned.
///
/// Pruning keeps the log bounded: below the floor it removes tombstones and every save that a
/// later change of the same record superseded, so what stays there is the last save of each
/// record that still exists. A fetch from the start still finds every record; a token below the
/// floor cannot be served (the deletions after it are gone) and is refused as expired — unless
/// a fetch from the start issued it under the same floor: then it has seen what pruning kept
/// below its position, and nothing was pruned since (see ``ChangeToken/floor``).
///
/// The floor is kept in `_meta` under `changeLogFloor`, in the transaction that prunes. The
/// log's last entry is never pruned, so the next sequence number (the largest plus one, see
/// ``ChangeLog``) can never fall back to one a token already named.
extension RecordTransaction {
    /// The floor: tokens below it have expired (but those issued under it); 0 while nothing was
    /// pruned.
    func changeLogFloor() throws -> Int64 {
        try String.fetchOne(db.cachedStatement(sql: "SELECT value FROM _meta WHERE key = 'changeLogFloor'")).flatMap { Int64($0) } ?? 0
    }

    /// The largest sequence number in the log; 0 when it is empty.
    func lastChangeSequence() throws -> Int64 {
        try Int64.fetchOne(db.cachedStatement(sql: "SELECT max(seq) FROM _changes")) ?? 0
    }

    /// Prunes the log at and below `sequence` (clamped to the last entry, which stays) and
    /// raises the floor to it; returns the number of entries removed. A floor never goes down.
    func pruneChanges(through sequence: Int64) throws -> Int {
        let floor = min(sequence, try lastChangeSequence())
        guard floor > (try changeLogFloor()) else { return 0 }
        try db.cachedStatement(
            sql: """
                DELETE FROM _changes WHERE seq <= ?1 AND seq < (SELECT max(seq) FROM _changes) \
                AND (kind = 'deleted' OR seq NOT IN (SELECT max(seq) FROM _changes GROUP BY recordName))
                """
        ).execute(arguments: [floor])
        let removed = db.changesCount
        try db.cachedStatement(sql: "INSERT OR REPLACE INTO _meta(key, value) VALUES ('changeLogFloor', ?)").execute(arguments: [String(floor)])
        return removed
    }

    /// The last sequence number logged at or before `milliseconds` (since 1970); 0 when none.
    func lastChangeSequence(atOrBefore milliseconds: Int64) throws -> Int64 {
        // A scan of the log (there is no index on `at`, which would cost every write): pruning
        // runs rarely, and the log it scans is the bounded one.
        try Int64.fetchOne(db.cachedStatement(sql: "SELECT max(seq) FROM _changes WHERE at <= ?"), arguments: [milliseconds]) ?? 0
    }

    /// `changeTokenExpired` unless `token` is one the log can serve: issued by this log (see
    /// ``changeLogIdentity()``), not past the last entry (a token of this database before a
    /// restore), and at or above the floor — or below it in a fetch from the start that began
    /// under the same floor (``ChangeToken/floor``): what pruning kept there has not changed.
    func checkServable(_ token: ChangeToken) throws {
        let floor = try changeLogFloor()
        let last = try lastChangeSequence()
        let identity = try changeLogIdentity()
        let foreign = token.log != nil && identity != nil && token.log != identity
        let pruned = token.sequence < floor && token.floor != floor
        guard foreign || pruned || token.sequence > last else { return }
        let why =
            foreign
            ? "it was issued by the change log of another database or zone (or of a zone deleted since)"
            : token.sequence < floor
                ? "the changes after it were pruned from the change log (it keeps them after position \(floor))"
                : "it names a position this database's change log never reached"
        throw RecordError(
            .invalidArguments, "the change token \(token.text) has expired: \(why)",
            reason: .changeTokenExpired, remedy: .fetchChangesFromStart
        )
    }
}
