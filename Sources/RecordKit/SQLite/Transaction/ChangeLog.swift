internal import GRDB

/// The saves and deletes of one write transaction, in the order they were made, written to the
/// `_changes` table with one statement when the transaction's work is done, before it commits.
///
/// The engine writes the log itself rather than through triggers: a trigger on a table makes
/// SQLite keep a statement journal for every single-row insert, update or delete, which cost
/// more than the write it logged (a 100,000-record batch took 2.8x as long with log triggers).
struct ChangeLog {
    private struct Entry {
        var recordType: String
        var recordName: String
        var kind: Change.Kind
        var changeTag: String?
        var at: Int64
        /// The user who created a deleted record; `nil` for the owner, and for saves.
        var createdBy: String?
    }

    private var entries: [Entry] = []
    /// The members of an entry written as a JSON array, in the columns' order.
    private static let entryMembers = (0...5).map { "value ->> \($0)" }.joined(separator: ", ")
    /// The record types of every entry logged in the transaction, written or not (what its
    /// commit notice names, ``CommitNotice``).
    private(set) var recordTypes: Set<String> = []

    /// Logs that `recordName` of `recordType` was saved with `changeTag` at `at` (milliseconds).
    mutating func saved(_ recordType: String, _ recordName: String, changeTag: String, at: Int64) {
        entries.append(Entry(recordType: recordType, recordName: recordName, kind: .saved, changeTag: changeTag, at: at))
        recordTypes.insert(recordType)
    }

    /// Whether a save of `recordName` is logged and not yet written: made earlier in the batch
    /// running (a failure's check, which scans the pending entries).
    func hasPendingSave(of recordName: String) -> Bool {
        entries.contains { $0.kind == .saved && $0.recordName == recordName }
    }

    /// Logs that `recordName` of `recordType`, created by `createdBy` (`nil`: the owner), was
    /// deleted at `at` (milliseconds).
    mutating func deleted(_ recordType: String, _ recordName: String, at: Int64, createdBy: String?) {
        entries.append(Entry(recordType: recordType, recordName: recordName, kind: .deleted, changeTag: nil, at: at, createdBy: createdBy))
        recordTypes.insert(recordType)
    }

    /// Logs, set-wise in SQL, the deletion of the `recordType` records selected by `selection`
    /// (`FROM … WHERE …` with the JSON array `names` as parameter `?1`), after the pending
    /// entries, with their creators (while a user ever wrote); returns their recordNames in log
    /// order. A cascade removing thousands of records never brings their names through Swift twice.
    mutating func logDeletions(of recordType: String, matching selection: String, names: String, at: Int64, in db: Database) throws -> [String] {
        try write(to: db)
        let creator =
            try RecordAuthors.hasRows(db) ? "(SELECT _author.createdBy FROM _recordAuthors AS _author WHERE _author.recordName = _recordName)" : "NULL"
        try db.cachedStatement(
            sql: """
                INSERT INTO _changes(recordType, recordName, kind, changeTag, at, createdBy) \
                SELECT ?2, _recordName, 'deleted', NULL, ?3, \(creator) \(selection)
                """
        ).execute(arguments: [names, recordType, at])
        guard db.changesCount > 0 else { return [] }
        recordTypes.insert(recordType)
        // The rows just logged are the last `changesCount` sequence numbers (each is the
        // largest so far plus one).
        let before = db.lastInsertedRowID - Int64(db.changesCount)
        return try String.fetchAll(db.cachedStatement(sql: "SELECT recordName FROM _changes WHERE seq > ? ORDER BY seq"), arguments: [before])
    }

    /// Writes the pending entries to `_changes` and forgets them: one entry (a single save or
    /// update) with bound values, more as one JSON array expanded by `json_each`.
    mutating func write(to db: Database) throws {
        guard let first = entries.first else { return }
        defer { entries.removeAll(keepingCapacity: true) }
        let insert = "INSERT INTO _changes(recordType, recordName, kind, changeTag, at, createdBy)"
        guard entries.count > 1 else {
            try db.cachedStatement(sql: "\(insert) VALUES (?, ?, ?, ?, ?, ?)")
                .execute(arguments: [first.recordType, first.recordName, first.kind.rawValue, first.changeTag, first.at, first.createdBy])
            return
        }
        var json = "["
        for (index, entry) in entries.enumerated() {
            if index > 0 { json += "," }
            let changeTag = entry.changeTag.map(JSONText.string) ?? "null"
            let createdBy = entry.createdBy.map(JSONText.string) ?? "null"
            json += "[\(JSONText.string(entry.recordType)),\(JSONText.string(entry.recordName)),\"\(entry.kind.rawValue)\","
            json += "\(changeTag),\(entry.at),\(createdBy)]"
        }
        try db.cachedStatement(sql: "\(insert) SELECT \(Self.entryMembers) FROM json_each(?) ORDER BY key").execute(arguments: [json + "]"])
    }
}
