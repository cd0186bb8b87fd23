import GRDB

/// The saves and deletes of one write transaction, in the order they were made, written to the
/// `_changes` table with one statement when the transaction's work is done, before it commits.
///
/// The engine writes the log itself rather than through triggers: a trigger on a table makes
/// SQLite keep a statement journal for every single-row insert, update or delete, which cost
/// more than the write it logged (a 100,000-record batch took 2.8x as long with log triggers).
struct ChangeLog {
    /// The pending entries as the elements of a JSON array: `[type, name, kind, changeTag, at]`.
    private var entries = ""

    /// Logs that `recordName` of `recordType` was saved with `changeTag` at `at` (milliseconds).
    mutating func saved(_ recordType: String, _ recordName: String, changeTag: String, at: Int64) {
        append(recordType, recordName, kind: "saved", changeTag: JSONText.string(changeTag), at: at)
    }

    /// Logs that `recordName` of `recordType` was deleted at `at` (milliseconds).
    mutating func deleted(_ recordType: String, _ recordName: String, at: Int64) {
        append(recordType, recordName, kind: "deleted", changeTag: "null", at: at)
    }

    private mutating func append(_ recordType: String, _ recordName: String, kind: String, changeTag: String, at: Int64) {
        entries += entries.isEmpty ? "[" : ","
        entries += "[\(JSONText.string(recordType)),\(JSONText.string(recordName)),\"\(kind)\",\(changeTag),\(at)]"
    }

    /// Logs, set-wise in SQL, the deletion of the `recordType` records selected by `selection`
    /// (`FROM … WHERE …` with the JSON array `names` as parameter `?1`), after the pending
    /// entries; returns their recordNames in log order. A cascade removing thousands of records
    /// never brings their names through Swift twice.
    mutating func logDeletions(of recordType: String, matching selection: String, names: String, at: Int64, in db: Database) throws -> [String] {
        try write(to: db)
        let last = try Int64.fetchOne(db.cachedStatement(sql: "SELECT ifnull(max(seq), 0) FROM _changes")) ?? 0
        try db.cachedStatement(sql: """
            INSERT INTO _changes(recordType, recordName, kind, changeTag, at) \
            SELECT ?2, _recordName, 'deleted', NULL, ?3 \(selection)
            """).execute(arguments: [names, recordType, at])
        guard db.changesCount > 0 else { return [] }
        return try String.fetchAll(db.cachedStatement(sql: "SELECT recordName FROM _changes WHERE seq > ? ORDER BY seq"), arguments: [last])
    }

    /// Writes the pending entries to `_changes` and forgets them.
    mutating func write(to db: Database) throws {
        guard !entries.isEmpty else { return }
        try db.cachedStatement(sql: """
            INSERT INTO _changes(recordType, recordName, kind, changeTag, at) \
            SELECT value ->> 0, value ->> 1, value ->> 2, value ->> 3, value ->> 4 FROM json_each(?) ORDER BY key
            """).execute(arguments: [entries + "]"])
        entries = ""
    }
}
