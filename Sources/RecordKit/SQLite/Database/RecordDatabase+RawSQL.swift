import Foundation
internal import GRDB

/// SQL of the caller's own on the engine's connections, for the tests that look beneath the
/// engine: every row of every table, the file's page count, a statement to interrupt, a
/// connection's page limit. Internal: outside this folder nothing speaks SQL, so the tests reach
/// it with `@testable import RecordKit` and never need GRDB.
extension RecordDatabase {
    /// The rows `sql` returns, read on a reader connection, each value as text (`NULL` for a null,
    /// a blob in base64).
    func rawRows(_ sql: String) throws -> [[String]] {
        try writer.read { db in try Self.rows(sql, in: db) }
    }

    /// The rows `sql` returns, run on the writing connection outside any transaction: for a
    /// setting of that connection (`PRAGMA max_page_count`), or to show it is free.
    func rawRowsOnWriter(_ sql: String) throws -> [[String]] {
        try writer.writeWithoutTransaction { db in try Self.rows(sql, in: db) }
    }

    /// ``rawRowsOnWriter(_:)-(String)`` for async code: the task suspends while the writer's
    /// thread runs `sql`.
    func rawRowsOnWriter(_ sql: String) async throws -> [[String]] {
        try await writer.suspendingWriteWithoutTransaction { db in try Self.rows(sql, in: db) }
    }

    static func rows(_ sql: String, in db: Database) throws -> [[String]] {
        try Row.fetchAll(db, sql: sql).map { row in
            row.databaseValues.map { value in
                switch value.storage {
                case .null: "NULL"
                case .int64(let integer): String(integer)
                case .double(let double): String(double)
                case .string(let text): text
                case .blob(let data): data.base64EncodedString()
                }
            }
        }
    }
}

extension RecordTransaction {
    /// The rows `sql` returns, run inside this transaction.
    func rawRows(_ sql: String) throws -> [[String]] {
        try RecordDatabase.rows(sql, in: db)
    }
}
