internal import GRDB

extension RecordDatabase {
    /// How often a file with subscribers is checked for commits by other processes.
    static let otherProcessCheckInterval: Duration = .milliseconds(50)

    /// The commits from now on (``RecordStore/commitNotices()``): this process's, told by
    /// SQLite's commit hook once a write transaction has committed (never for one that rolled
    /// back), and, for a file, other processes', found by `PRAGMA data_version` on the writer's
    /// connection every ``otherProcessCheckInterval`` while anyone subscribes.
    public func commitNotices() -> CommitNotices {
        commits.subscribe()
    }

    /// Tells the subscribers about `recordTypes` once the transaction open on `db` commits
    /// (GRDB's transaction observer); nothing when it rolls back.
    func announceAfterCommit(_ recordTypes: Set<String>, _ db: Database) {
        guard !recordTypes.isEmpty else { return }
        let commits = self.commits
        db.afterNextTransaction(onCommit: { _ in commits.publish(CommitNotice(recordTypes: recordTypes)) })
    }

    /// The task that finds other processes' commits on the file `writer` has open: `PRAGMA
    /// data_version` on the writer's connection changes only when another connection — no
    /// connection of this process writes — commits; the record types come from the change log
    /// entries past the last one seen.
    static func watchOtherProcesses(_ writer: any DatabaseWriter, for broadcaster: CommitBroadcaster) -> Task<Void, Never> {
        Task { [weak broadcaster] in
            var seen: (version: Int, sequence: Int64)?
            while !Task.isCancelled, let broadcaster {
                let before = seen
                let check = try? await writer.suspendingWriteWithoutTransaction { db -> (version: Int, sequence: Int64, notice: CommitNotice?) in
                    let version = try Int.fetchOne(db, sql: "PRAGMA data_version") ?? 0
                    if let before, before.version == version { return (version, before.sequence, nil) }
                    let sequence = try Int64.fetchOne(db, sql: "SELECT max(seq) FROM _changes") ?? 0
                    guard let before, sequence > before.sequence else { return (version, sequence, nil) }
                    let types = try String.fetchSet(
                        db, sql: "SELECT DISTINCT recordType FROM _changes WHERE seq > ? AND seq <= ?", arguments: [before.sequence, sequence])
                    return (version, sequence, CommitNotice(recordTypes: types.isEmpty ? nil : types))
                }
                if let check {
                    seen = (check.version, check.sequence)
                    if let notice = check.notice { broadcaster.publish(notice) }
                }
                if before == nil { broadcaster.watchLooked() }
                try? await Task.sleep(for: otherProcessCheckInterval)
            }
        }
    }
}
