internal import GRDB
internal import GRDBSQLite
import Synchronization

/// The async reads and writes of ``RecordDatabase``: the work runs on a thread of its own — a
/// read on one of the database's ``ReadLanes`` through GRDB's synchronous pool access, a write on
/// the writer's dispatch queue (GRDB's `asyncWriteWithoutTransaction`) — with the task suspended
/// on a continuation until it is done.
///
/// GRDB's `async` twins do the same through actors: a read first waits for a free reader on the
/// pool's semaphore actor, returns to the generic executor, runs on the reader's actor and
/// returns again — four executor switches: a `SELECT` 85–93 → 57–61 µs on a loaded machine with
/// continuations instead (docs/bench.md, "Optimisations"). A read on a lane takes two.
///
/// Cancellation is GRDB's: a task cancelled before its work starts gets `CancellationError` and
/// the work does not run; one cancelled while its work runs has the statement interrupted
/// (`sqlite3_interrupt` on that connection only) and gets `CancellationError`.
extension DatabaseWriter {
    /// `body` in a read-only transaction on a reader connection, run on one of `lanes`.
    ///
    /// The connection comes from GRDB's `unsafeReentrantRead` (never reentrant here: a lane is
    /// not a connection's queue), and the transaction is begun and ended here through statements
    /// prepared once per connection: GRDB's `read` prepares its `BEGIN DEFERRED TRANSACTION` and
    /// `COMMIT TRANSACTION` anew for every read (3% of the service's CPU under the canonical
    /// query's load). A read cannot leave a half-done write to guard against; the connection
    /// leaves the transaction before it returns to the pool, committed, or rolled back when the
    /// body failed.
    func suspendingRead<T: Sendable>(on lanes: ReadLanes, _ body: @escaping @Sendable (Database) throws -> T) async throws -> T {
        try await suspending({ db in try Self.inReadTransaction(db, body) }) { run in
            lanes.run { [self] in
                do {
                    return try unsafeReentrantRead { db in run.outcome(on: db) }
                } catch {
                    return .failure(error)
                }
            } then: { outcome in
                run.resume(with: outcome)
            }
        }
    }

    /// `body` between `BEGIN DEFERRED` and `COMMIT` (or `ROLLBACK` when it throws) on `db`.
    private static func inReadTransaction<T>(_ db: Database, _ body: (Database) throws -> T) throws -> T {
        try db.cachedStatement(sql: "BEGIN DEFERRED TRANSACTION").execute()
        do {
            let result = try body(db)
            try db.cachedStatement(sql: "COMMIT TRANSACTION").execute()
            return result
        } catch {
            if db.isInsideTransaction { try? db.cachedStatement(sql: "ROLLBACK TRANSACTION").execute() }
            throw error
        }
    }

    /// `body` on the writer connection, outside any transaction (GRDB's
    /// `asyncWriteWithoutTransaction`): `body` opens and ends its own.
    func suspendingWriteWithoutTransaction<T: Sendable>(_ body: @escaping @Sendable (Database) throws -> T) async throws -> T {
        try await suspending(body) { run in
            asyncWriteWithoutTransaction { db in run(db) }
        }
    }

    /// `body` run by what `schedule` hands the connection to, the task suspended meanwhile.
    private func suspending<T: Sendable>(
        _ body: @escaping @Sendable (Database) throws -> T, schedule: (ScheduledAccess<T>) -> Void
    ) async throws -> T {
        let cancellation = AccessCancellation()
        return try await withTaskCancellationHandler {
            try await withUnsafeThrowingContinuation { continuation in
                schedule(ScheduledAccess(body: body, cancellation: cancellation, continuation: continuation))
            }
        } onCancel: {
            cancellation.cancel()
        }
    }
}

/// One suspended access: its work and the continuation its result resumes.
private struct ScheduledAccess<T: Sendable>: Sendable {
    let body: @Sendable (Database) throws -> T
    let cancellation: AccessCancellation
    let continuation: UnsafeContinuation<T, any Error>

    /// Runs the work on `db` (on the connection's queue) and resumes the task with its result.
    func callAsFunction(_ db: Database) {
        resume(with: outcome(on: db))
    }

    /// The work's result on `db`, for a caller that resumes the task later.
    func outcome(on db: Database) -> Result<T, any Error> {
        Result { try cancellation.running(on: db) { try body(db) } }
    }

    /// Resumes the task with `outcome`: the work's, or the error that kept it from a connection.
    func resume(with outcome: Result<T, any Error>) {
        continuation.resume(with: outcome)
    }
}

/// Whether an access's task was cancelled, and the connection to interrupt if it is running.
private final class AccessCancellation: Sendable {
    private struct State {
        var isCancelled = false
        var running: Interruptible?
    }

    /// A connection's handle, only ever passed to `sqlite3_interrupt`, which any thread may call.
    private struct Interruptible: @unchecked Sendable {
        let connection: SQLiteConnection
    }

    private let state = Mutex(State())

    /// Marks the task cancelled and interrupts the statement running for it, if any.
    func cancel() {
        state.withLock { state in
            state.isCancelled = true
            if let running = state.running { sqlite3_interrupt(running.connection) }
        }
    }

    /// `work` on `db`, unless the task was cancelled before it starts; a statement it has
    /// interrupted fails as `CancellationError`.
    func running<T>(on db: Database, _ work: () throws -> T) throws -> T {
        let connection = db.sqliteConnection.map(Interruptible.init)
        try state.withLock { state throws(CancellationError) in
            if state.isCancelled { throw CancellationError() }
            state.running = connection
        }
        defer { state.withLock { $0.running = nil } }
        do {
            return try work()
        } catch let error as DatabaseError where error.resultCode == .SQLITE_INTERRUPT && state.withLock({ $0.isCancelled }) {
            throw CancellationError()
        }
    }
}
