internal import GRDB

/// Who created and last modified each record, when a user did (CloudKit's `___createdBy` and
/// `___modifiedBy`): the `_recordAuthors` table, one row per record named, written only for
/// writes made by a user (``AccessPolicy/author``). A record without a row, or a NULL column,
/// was created or modified by the owner (``AccessPolicy/ownerRecordName``). So the owner's own
/// writes (the REPL, an admin, a benchmark) cost nothing extra while no user ever wrote.
enum RecordAuthors {
    static let table = "_recordAuthors"

    /// The migration that adds the table.
    static func migrate(_ db: Database) throws {
        try db.execute(
            sql: """
                CREATE TABLE _recordAuthors (
                    recordName TEXT PRIMARY KEY,
                    createdBy TEXT,
                    modifiedBy TEXT
                ) WITHOUT ROWID
                """)
    }

    /// The SQL expression of the creator (`createdBy`) or modifier (`modifiedBy`) of the record
    /// whose recordName column is `recordName`, the owner's name when no user is recorded.
    static func expression(_ column: String, recordName: String) -> String {
        "coalesce((SELECT _author.\(column) FROM _recordAuthors AS _author WHERE _author.recordName = \(recordName)), '\(AccessPolicy.ownerRecordName)')"
    }

    /// The creator and modifier recorded for `recordName`, `nil` each when it is the owner.
    static func authors(of recordName: String, in db: Database) throws -> (createdBy: String?, modifiedBy: String?) {
        let statement = try db.cachedStatement(sql: "SELECT createdBy, modifiedBy FROM _recordAuthors WHERE recordName = ?")
        guard let row = try Row.fetchOne(statement, arguments: [recordName]) else { return (nil, nil) }
        return (row[0] as String?, row[1] as String?)
    }

    /// The creators and modifiers recorded for any of `recordNames`, by recordName (a record
    /// missing from the answer, or a `nil`, is the owner's): one statement for a page of records,
    /// none while no user ever wrote.
    static func authors(of recordNames: [String], in db: Database) throws -> [String: (createdBy: String?, modifiedBy: String?)] {
        guard !recordNames.isEmpty, try hasRows(db) else { return [:] }
        let names = JSONText.array(recordNames)
        let statement = try db.cachedStatement(
            sql: "SELECT recordName, createdBy, modifiedBy FROM _recordAuthors WHERE recordName IN (SELECT value FROM json_each(?))")
        var authors: [String: (createdBy: String?, modifiedBy: String?)] = [:]
        for row in try Row.fetchAll(statement, arguments: [names]) {
            authors[row[0]] = (row[1] as String?, row[2] as String?)
        }
        return authors
    }

    /// Records `author` as the creator and modifier of the new record `recordName` (owner: no row,
    /// and any row left by an earlier record of that name removed).
    static func created(_ recordName: String, by author: String?, in db: Database) throws {
        if let author {
            try db.cachedStatement(sql: "INSERT OR REPLACE INTO _recordAuthors(recordName, createdBy, modifiedBy) VALUES (?, ?, ?)")
                .execute(arguments: [recordName, author, author])
        } else if try hasRows(db) {
            try db.cachedStatement(sql: "DELETE FROM _recordAuthors WHERE recordName = ?").execute(arguments: [recordName])
        }
    }

    /// Records `author` as the last modifier of `recordName`, keeping its creator.
    static func modified(_ recordName: String, by author: String?, in db: Database) throws {
        if let author {
            try db.cachedStatement(
                sql:
                    "INSERT INTO _recordAuthors(recordName, createdBy, modifiedBy) VALUES (?, NULL, ?) ON CONFLICT(recordName) DO UPDATE SET modifiedBy = excluded.modifiedBy"
            ).execute(arguments: [recordName, author])
        } else if try hasRows(db) {
            try db.cachedStatement(sql: "UPDATE _recordAuthors SET modifiedBy = NULL WHERE recordName = ?").execute(arguments: [recordName])
        }
    }

    /// Forgets the authors of deleted records.
    static func deleted(_ recordNames: [String], in db: Database) throws {
        guard !recordNames.isEmpty, try hasRows(db) else { return }
        let names = JSONText.array(recordNames)
        try db.cachedStatement(sql: "DELETE FROM _recordAuthors WHERE recordName IN (SELECT value FROM json_each(?))").execute(arguments: [names])
    }

    /// Whether any user's write was ever recorded (one index probe).
    /// Whether any record has a user recorded as its creator or modifier (none while only the
    /// owner ever wrote).
    static func hasRows(_ db: Database) throws -> Bool {
        try Bool.fetchOne(db.cachedStatement(sql: "SELECT EXISTS (SELECT 1 FROM _recordAuthors)")) ?? false
    }
}
