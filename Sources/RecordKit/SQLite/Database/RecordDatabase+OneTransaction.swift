import GRDB
import Synchronization

/// How ``RecordDatabase/inOneTransaction(undoing:_:)`` undoes a write that fails inside it.
public enum FailedWriteUndo: Sendable, Hashable {
    /// Each write is a savepoint of the transaction: a failing one rolls back only itself, and
    /// the reads and writes after it go on (a script run as one transaction, `-1`) — unless
    /// SQLite rolled the whole transaction back on its own (an interrupted write, a full disk),
    /// which then ends as ``wholeTransaction`` does.
    case thatWrite
    /// Writes run without savepoints (two statements fewer each): a failing one rolls the whole
    /// transaction back at once, every read and write after it in the transaction fails, and
    /// the transaction ends with that failure even when its body caught it (one command's
    /// look-ups and its write).
    case wholeTransaction
}

/// What ``RecordDatabase/inOneTransaction(undoing:_:)`` holds open.
struct OneTransaction: Sendable {
    var undo: FailedWriteUndo
    /// The write that rolled the transaction back (``FailedWriteUndo/wholeTransaction``).
    var abortedBy: RecordError?
    /// The schema as read since the last write: nothing else changes it while the write lock is
    /// held, so the reads and the next write use it without reading the version again.
    var schemaSinceLastWrite: SchemaSnapshot?

    /// What a read or write after ``abortedBy`` fails with.
    var refusalAfterAbort: RecordError? {
        abortedBy.map { RecordError($0.code, "an earlier write failed and rolled this transaction back, so nothing after it runs: \($0.message)") }
    }
}

extension RecordDatabase {
    /// Runs `body` with every read and write of this database, from any call, inside one SQLite
    /// transaction, as psql's `--single-transaction` does: each ``read(_:)`` sees what the writes
    /// before it did, and the whole commits when `body` returns, or rolls back entirely when it
    /// throws. `undo` says what a failing ``write(_:)`` inside undoes (``FailedWriteUndo``).
    ///
    /// The write lock is taken at once (`BEGIN IMMEDIATE`) and held until the end: other
    /// connections keep reading the state before it, and their writes wait. Called while one is
    /// open already, `body` runs inside the open one, under its `undo`. Calls must not overlap
    /// with another `inOneTransaction` on the same database from another task.
    ///
    /// Made for a session that does one thing at a time, a command line: the transaction begins
    /// and ends on the calling thread, which waits while another connection writes, as the
    /// synchronous ``write(_:)-(RecordTransaction)->T`` does. (Handing each to GRDB's queue and
    /// back made a script of single-record commands a third slower.)
    public func inOneTransaction<T>(undoing undo: FailedWriteUndo = .thatWrite, _ body: () async throws -> T) async throws -> T {
        if isReadOnly { throw readOnlyRefusal }
        if isInOneTransaction { return try await body() }
        do {
            try BusyRetry.run(for: busyRetryTime) { try onWriter { db in try db.cachedStatement(sql: "BEGIN IMMEDIATE TRANSACTION").execute() } }
        } catch {
            throw RecordError.wrapping(error, path: path)
        }
        oneTransaction.withLock { $0 = OneTransaction(undo: undo) }
        defer { oneTransaction.withLock { $0 = nil } }
        let result: T
        do {
            result = try await body()
        } catch {
            rollBackOneTransaction()
            throw error
        }
        if let abort = oneTransaction.withLock({ $0?.abortedBy }) { throw abort }
        do {
            try onWriter { db in try db.cachedStatement(sql: "COMMIT TRANSACTION").execute() }
        } catch {
            rollBackOneTransaction()
            throw RecordError.wrapping(error, path: path)
        }
        return result
    }

    /// Whether ``inOneTransaction(undoing:_:)`` holds a transaction every read and write joins.
    var isInOneTransaction: Bool { oneTransaction.withLock { $0 != nil } }

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

    /// ``write(_:)`` inside ``inOneTransaction(undoing:_:)``: a savepoint of its transaction, or,
    /// undoing the whole transaction, the statements alone.
    func writeInOneTransaction<T>(access: AccessPolicy = .owner, _ body: (RecordTransaction) throws -> T) throws -> T {
        let state = oneTransaction.withLock { $0 }
        if let refusal = state?.refusalAfterAbort { throw refusal }
        // The write may change the schema: what follows reads it again.
        defer { oneTransaction.withLock { $0?.schemaSinceLastWrite = nil } }
        guard state?.undo == .wholeTransaction else {
            do {
                return try writer.writeWithoutTransaction { db in
                    var result: T?
                    try db.inSavepoint {
                        result = try transact(db, snapshot: try oneTransactionSnapshot(db), access: access, body)
                        return .commit
                    }
                    guard let result else { throw RecordError(.internalError, "a write inside one transaction returned nothing") }
                    return result
                }
            } catch {
                // SQLite rolls the whole transaction back on its own when some writes fail (an
                // interrupted statement, a full disk, an I/O error): the savepoint undid more
                // than its write, and a later write would open and commit a transaction of its own.
                if !writer.writeWithoutTransaction({ $0.isInsideTransaction }) { abortOneTransaction(error) }
                throw error
            }
        }
        do {
            return try writer.writeWithoutTransaction { db in try transact(db, snapshot: try oneTransactionSnapshot(db), access: access, body) }
        } catch {
            abortOneTransaction(error)
            throw error
        }
    }

    /// Ends the transaction of ``inOneTransaction(undoing:_:)`` after `error`: every read and
    /// write after it is refused, and the transaction ends with it.
    private func abortOneTransaction(_ error: any Error) {
        rollBackOneTransaction()
        let abort = RecordError.wrapping(error, path: path)
        oneTransaction.withLock { $0?.abortedBy = abort }
    }

    /// ``read(_:)`` inside ``inOneTransaction(undoing:_:)``: on the writer's connection, which sees
    /// the transaction's writes.
    func readInOneTransaction<T>(access: AccessPolicy = .owner, _ body: (RecordTransaction) throws -> T) throws -> T {
        if let refusal = oneTransaction.withLock({ $0?.refusalAfterAbort }) { throw refusal }
        return try writer.writeWithoutTransaction { db in
            try body(RecordTransaction(db, snapshot: try oneTransactionSnapshot(db), databasePath: path, access: access))
        }
    }

    /// The schema inside ``inOneTransaction(undoing:_:)``: the one read since the last write,
    /// or read now and kept until the next.
    private func oneTransactionSnapshot(_ db: Database) throws -> SchemaSnapshot {
        if let kept = oneTransaction.withLock({ $0?.schemaSinceLastWrite }) { return kept }
        let read = try snapshot(db)
        oneTransaction.withLock { $0?.schemaSinceLastWrite = read }
        return read
    }
}
