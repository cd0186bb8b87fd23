import GRDB
import Synchronization

extension RecordDatabase {
    /// Runs `body` with every read and write of this database, from any call, inside one SQLite
    /// transaction, as psql's `--single-transaction` does: each ``write(_:)`` becomes a savepoint
    /// (a failing one rolls back only itself), each ``read(_:)`` sees what the writes before it
    /// did, and the whole commits when `body` returns, or rolls back entirely when it throws.
    ///
    /// The write lock is taken at once (`BEGIN IMMEDIATE`) and held until the end: other
    /// connections keep reading the state before it, and their writes wait. Called while one is
    /// open already, `body` runs inside the open one. Calls must not overlap with another
    /// `inOneTransaction` on the same database from another task.
    ///
    /// Made for a session that does one thing at a time, a command line: the transaction begins
    /// and ends on the calling thread, which waits while another connection writes, as the
    /// synchronous ``write(_:)-(RecordTransaction)->T`` does. (Handing each to GRDB's queue and
    /// back made a script of single-record commands a third slower.)
    public func inOneTransaction<T>(_ body: () async throws -> T) async throws -> T {
        if isReadOnly { throw readOnlyRefusal }
        if isInOneTransaction.withLock({ $0 }) { return try await body() }
        do {
            try BusyRetry.run(for: busyRetryTime) { try onWriter { db in try db.beginTransaction(.immediate) } }
        } catch {
            throw RecordError.wrapping(error, path: path)
        }
        isInOneTransaction.withLock { $0 = true }
        defer { isInOneTransaction.withLock { $0 = false } }
        let result: T
        do {
            result = try await body()
        } catch {
            rollBackOneTransaction()
            throw error
        }
        do {
            try onWriter { db in try db.commit() }
        } catch {
            rollBackOneTransaction()
            throw RecordError.wrapping(error, path: path)
        }
        return result
    }

    /// `body` on the writer's connection, on the calling thread.
    private func onWriter(_ body: (Database) throws -> Void) throws {
        try writer.writeWithoutTransaction(body)
    }

    private func rollBackOneTransaction() {
        // SQLite may have rolled back already (an interrupted write ends its transaction).
        try? writer.writeWithoutTransaction { db in
            if db.isInsideTransaction { try db.rollback() }
        }
        forgetSchemaSnapshot()
    }

    /// ``write(_:)`` inside ``inOneTransaction(_:)``: a savepoint of its transaction.
    func writeInOneTransaction<T>(access: AccessPolicy = .owner, _ body: (RecordTransaction) throws -> T) throws -> T {
        try writer.writeWithoutTransaction { db in
            var result: T?
            try db.inSavepoint {
                result = try transact(db, access: access, body)
                return .commit
            }
            guard let result else { throw RecordError(.internalError, "a write inside one transaction returned nothing") }
            return result
        }
    }

    /// ``read(_:)`` inside ``inOneTransaction(_:)``: on the writer's connection, which sees the
    /// transaction's writes.
    func readInOneTransaction<T>(access: AccessPolicy = .owner, _ body: (RecordTransaction) throws -> T) throws -> T {
        try writer.writeWithoutTransaction { db in
            try body(RecordTransaction(db, snapshot: try snapshot(db), databasePath: path, access: access))
        }
    }
}
