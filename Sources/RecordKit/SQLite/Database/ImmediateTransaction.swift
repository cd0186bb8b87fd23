internal import GRDB

/// The write transactions of ``RecordDatabase``, begun and ended through cached statements.
///
/// GRDB's `inTransaction` runs `BEGIN` and `COMMIT` with `execute(sql:)`, which prepares them
/// again for every transaction; a cached statement is prepared once per connection. GRDB still
/// sees the transaction (its observers are told of the commit), because it watches the
/// statements themselves.
extension Database {
    /// Begins a write transaction that takes the write lock at once (`BEGIN IMMEDIATE`), so a
    /// lock held by another process fails here, before any work, rather than at the first write.
    func beginImmediateTransaction() throws {
        try cachedStatement(sql: "BEGIN IMMEDIATE TRANSACTION").execute()
    }

    /// Commits the transaction open on this connection.
    func commitTransaction() throws {
        try cachedStatement(sql: "COMMIT TRANSACTION").execute()
    }

    /// `body` in one immediate transaction: committed when it returns, rolled back when it (or
    /// the commit) throws, and the error rethrown.
    func inImmediateTransaction<T>(_ body: () throws -> T) throws -> T {
        try beginImmediateTransaction()
        do {
            let result = try body()
            try commitTransaction()
            return result
        } catch {
            // SQLite may have rolled back already (an interrupted or failed commit ends it).
            if isInsideTransaction { try? rollback() }
            throw error
        }
    }
}
