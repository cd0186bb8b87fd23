import Foundation
internal import GRDB
import Synchronization

/// A CloudKit-style record database in one SQLite file.
///
/// ```swift
/// let db = try RecordDatabase(path: "shop.sqlite", bootstrap: try CKDBParser.parse("""
///     DEFINE SCHEMA
///         RECORD TYPE Lists (name STRING QUERYABLE SORTABLE);
///         RECORD TYPE Items (name STRING QUERYABLE SORTABLE, list REFERENCE QUERYABLE);
///     """))                                                  // the schema of a new file
/// let list = try db.save(Record("Lists", recordName: "L1", fields: ["name": .string("Groceries")]))
/// try db.save(Record("Items", fields: [
///     "name": .string("Milk"),
///     "list": .reference(Reference("L1", action: .deleteSelf)),
/// ]))
/// let items = try db.records(matching: Query("Items", predicate: try PredicateParser.parse("list == 'L1'"),
///                                             sort: [SortDescriptor("name")]))
/// try db.addField(FieldDefinition("number", .int64), to: "Items")
/// let removed = try db.delete(recordName: "L1")           // ["L1", <every item of L1>]
/// ```
///
/// It is `Sendable`: share one instance across tasks. A file database is a GRDB `DatabasePool`
/// in WAL mode, so reads proceed while a write runs; writes are serialized. Every method runs in
/// one transaction; ``write(_:)`` groups several operations into one.
public final class RecordDatabase: Sendable {
    /// The database file, or `nil` for an in-memory database.
    public let path: String?
    /// Whether it was opened with ``readOnly(path:trace:)``: every write is refused.
    public let isReadOnly: Bool
    let writer: any DatabaseWriter
    /// Its reader connections; the databases of its zones get the same.
    let readers: ReaderConnections
    /// The threads async reads run on, one per connection reads can use.
    let readLanes: ReadLanes
    /// How long a transaction is tried again while the file is busy (``BusyRetry``).
    let busyRetryTime: Duration
    /// The schema snapshot last read, reused while `PRAGMA user_version` is unchanged.
    private let cachedSnapshot = Mutex<SchemaSnapshot?>(nil)
    /// The transaction ``inOneTransaction(undoing:_:)`` holds open, which every read and write joins.
    let oneTransaction = Mutex<OneTransaction?>(nil)
    /// The databases of the custom zones opened so far, by name, with the zone's id
    /// (``RecordDatabase/zone(_:)``).
    let openZones = Mutex<[String: (id: Int64, database: RecordDatabase)]>([:])
    /// Tells ``commitNotices()``'s subscribers about commits: this process's, and (while anyone
    /// listens) those of other processes on the same file.
    let commits: CommitBroadcaster
    /// Counts the schema changes this instance committed (``committedSchemaChanges``).
    let schemaCommits = SchemaCommitCounter()

    /// Opens the database at `path`, creating it with `bootstrap` when it is new (by default
    /// with no record types: add them with ``updateSchema(to:mode:)``). An existing database keeps its
    /// schema; one that has none yet gets `bootstrap`.
    ///
    /// `trace`, when given, is called with the SQL of every statement executed (to count or log
    /// them).
    ///
    /// `readers` sets its reader connections: ``ReaderConnections/standard`` for a process that
    /// reads a few things and exits, ``ReaderConnections/service`` for a server.
    public convenience init(
        path: String, bootstrap: Schema = Schema(), trace: (@Sendable (String) -> Void)? = nil, readers: ReaderConnections = .standard
    ) throws(RecordError) {
        try self.init(location: path, bootstrap: bootstrap, trace: trace, readers: readers)
    }

    /// A new in-memory database with `bootstrap` (by default no record types).
    public static func inMemory(bootstrap: Schema = Schema(), trace: (@Sendable (String) -> Void)? = nil) throws(RecordError) -> RecordDatabase {
        try RecordDatabase(location: nil, bootstrap: bootstrap, trace: trace)
    }

    init(
        location: String?, bootstrap: Schema, trace: (@Sendable (String) -> Void)?, busyRetryTime: Duration = BusyRetry.timeout,
        readOnly: Bool = false, readers: ReaderConnections = .standard
    ) throws(RecordError) {
        SQLiteLibrary.configure()
        path = location
        self.readers = readers
        isReadOnly = readOnly
        self.busyRetryTime = busyRetryTime
        var configuration = Configuration()
        configuration.busyMode = BusyRetry.busyMode
        // ``inOneTransaction(undoing:_:)`` keeps a transaction open across database accesses.
        configuration.allowsUnsafeTransactions = true
        readers.configure(&configuration)
        configuration.prepareDatabase { db in
            // WAL with synchronous=NORMAL: a commit survives the process crashing (killed at any
            // moment); only an OS crash or power loss may drop the last commits, never corrupt.
            if !readOnly { try db.execute(sql: "PRAGMA synchronous = NORMAL") }
            try readers.prepare(db)
            SQLFunctions.register(in: db)
            if let trace {
                db.trace(options: .statement) { event in
                    if case .statement(let statement) = event { trace(statement.sql) }
                }
            }
        }
        let opened: any DatabaseWriter
        do {
            if readOnly, let location {
                opened = try BusyRetry.run { try Self.openReadOnly(at: location, configuration: configuration) }
            } else {
                opened = try BusyRetry.run { try Self.openStorage(at: location, configuration: configuration, bootstrap: bootstrap) }
            }
        } catch {
            throw RecordError.wrapping(error, path: location)
        }
        writer = opened
        // A pool reads on its readers; a queue (in memory, or a file opened read-only) has one
        // connection, so more lanes would only block threads waiting for it.
        readLanes = ReadLanes(count: opened is DatabasePool ? readers.count : 1)
        // Only a file can be written by another process; a read-only one never commits itself.
        if location == nil || readOnly {
            commits = CommitBroadcaster()
        } else {
            commits = CommitBroadcaster(watch: { Self.watchOtherProcesses(opened, for: $0) })
        }
    }

    /// Makes the statement running now, in any task, fail at once (SQLite's `sqlite3_interrupt`):
    /// its transaction rolls back, and the caller gets an error. Safe to call from any thread,
    /// such as a signal handler's queue; does nothing when no statement runs.
    public func interrupt() {
        writer.interrupt()
    }

    // MARK: Transactions

    /// Runs `body` in one write transaction: everything it does commits together, or nothing
    /// does if it throws. When SQLite reports the file busy (another process holds it), the
    /// transaction rolls back and `body` runs again, for up to 10 seconds: keep its effects
    /// inside the transaction. Blocks the calling thread; from async code use
    /// ``write(_:)-(@Sendable(RecordTransaction)->T)``.
    ///
    /// - Throws: the error `body` throws, unchanged (after rolling back); the database's own
    ///   failures (busy, disk full, read-only…) as ``RecordError`` (``RecordError/wrapping(_:path:)``).
    public func write<T>(_ body: (RecordTransaction) throws -> T) throws -> T {
        try write(access: .owner, body)
    }

    /// ``write(_:)-(RecordTransaction)->T`` acting for `access` (``RecordTransaction/access``):
    /// what it may not read is left out, what it may not write refused.
    public func write<T>(access: AccessPolicy, _ body: (RecordTransaction) throws -> T) throws -> T {
        do {
            if isReadOnly { throw readOnlyRefusal }
            if isInOneTransaction { return try writeInOneTransaction(access: access, body) }
            return try BusyRetry.run(for: busyRetryTime) {
                try writer.write { db in try transact(db, access: access, body) }
            }
        } catch {
            throw surfaced(error)
        }
    }

    /// Runs `body` on a consistent snapshot of the database, concurrently with writes. Like a
    /// write, it runs again when SQLite reports the file busy (in practice only while another
    /// process recovers the file after a crash, before any row is read). Blocks the calling
    /// thread; from async code use ``read(_:)-(@Sendable(RecordTransaction)->T)``.
    ///
    /// - Throws: the error `body` throws, unchanged; the database's own failures as ``RecordError``.
    public func read<T>(_ body: (RecordTransaction) throws -> T) throws -> T {
        do {
            if isInOneTransaction { return try readInOneTransaction(body) }
            return try BusyRetry.run(for: busyRetryTime) {
                try writer.read { db in
                    try body(RecordTransaction(db, snapshot: try snapshot(db), databasePath: path))
                }
            }
        } catch {
            throw surfaced(error)
        }
    }

    /// ``write(_:)`` for async code: the transaction runs on the database's own writer thread
    /// while the task suspends, and a file locked by another process is retried by suspending
    /// the task, never by blocking a thread (``BusyRetry``).
    ///
    /// - Throws: the error `body` throws, unchanged (after rolling back); the database's own
    ///   failures as ``RecordError``; `CancellationError` when the task is cancelled first.
    public func write<T: Sendable>(_ body: @escaping @Sendable (RecordTransaction) throws -> T) async throws -> T {
        try await write(access: .owner, body)
    }

    /// The async ``write(_:)-(@Sendable(RecordTransaction)->T)`` acting for `access`.
    public func write<T: Sendable>(access: AccessPolicy, _ body: @escaping @Sendable (RecordTransaction) throws -> T) async throws -> T {
        do {
            if isReadOnly { throw readOnlyRefusal }
            if isInOneTransaction { return try writeInOneTransaction(access: access, body) }
            return try await BusyRetry.run(for: busyRetryTime) {
                try await writer.suspendingWriteWithoutTransaction { [self] db in
                    try BusyRetry.failingFast(db) {
                        // GRDB's own transaction: while it runs, a statement after SQLite has
                        // aborted it (a failure the body caught) fails instead of committing alone.
                        var result: T?
                        try db.inTransaction(.immediate) {
                            result = try transact(db, access: access, body)
                            return .commit
                        }
                        return result!
                    }
                }
            }
        } catch {
            throw surfaced(error)
        }
    }

    /// ``read(_:)`` for async code: the snapshot is read on one of the database's reader
    /// threads while the task suspends, so reads never wait for a write in progress.
    ///
    /// - Throws: the error `body` throws, unchanged; the database's own failures as ``RecordError``.
    public func read<T: Sendable>(_ body: @escaping @Sendable (RecordTransaction) throws -> T) async throws -> T {
        try await read(access: .owner, body)
    }

    /// The async ``read(_:)-(@Sendable(RecordTransaction)->T)`` acting for `access`.
    public func read<T: Sendable>(access: AccessPolicy, _ body: @escaping @Sendable (RecordTransaction) throws -> T) async throws -> T {
        do {
            if isInOneTransaction { return try readInOneTransaction(access: access, body) }
            return try await BusyRetry.run(for: busyRetryTime) {
                try await writer.suspendingRead(on: readLanes) { [self] db in
                    try body(RecordTransaction(db, snapshot: try snapshot(db), databasePath: path, access: access))
                }
            }
        } catch {
            throw surfaced(error)
        }
    }

    /// `body` run through a transaction on `db`, inside a write transaction (or savepoint)
    /// already open, with the content of assets it left unheld removed and the change log
    /// written after it; `known` is the schema when the
    /// caller knows it is current, read from `db` otherwise.
    func transact<T>(
        _ db: Database, snapshot known: SchemaSnapshot? = nil, access: AccessPolicy = .owner, _ body: (RecordTransaction) throws -> T
    ) throws -> T {
        let transaction = RecordTransaction(db, snapshot: try known ?? snapshot(db), databasePath: path, access: access)
        let result = try body(transaction)
        try transaction.removeUnheldAssets()
        try transaction.changeLog.write(to: db)
        announceAfterCommit(transaction.changeLog.recordTypes, db)
        if transaction.changedSchema {
            let schemaCommits = self.schemaCommits
            db.afterNextTransaction(onCommit: { _ in schemaCommits.increment() })
        }
        return result
    }

    /// How many transactions that changed the schema this instance has committed. While it
    /// stays the same, whatever was derived from the schema is current as far as this process
    /// is concerned (another process's changes show only in the file).
    public var committedSchemaChanges: Int { schemaCommits.value }

    /// A failure of a transaction as its caller sees it: the database's own errors (SQLite's)
    /// as ``RecordError``; what the body threw, ``RecordError`` included, unchanged.
    private func surfaced(_ error: any Error) -> any Error {
        error is DatabaseError ? RecordError.wrapping(error, path: path) : error
    }

    /// ``read(_:)`` for RecordKit's own bodies, which throw only ``RecordError`` and SQLite's
    /// errors: typed.
    func performRead<T>(_ body: (RecordTransaction) throws -> T) throws(RecordError) -> T {
        try recordErrors { try read(body) }
    }

    /// ``write(_:)`` for RecordKit's own bodies: typed.
    func performWrite<T>(_ body: (RecordTransaction) throws -> T) throws(RecordError) -> T {
        try recordErrors { try write(body) }
    }

    /// The result of `body`, which throws only RecordKit's and SQLite's errors, with its
    /// failure as a ``RecordError``.
    func recordErrors<T>(_ body: () throws -> T) throws(RecordError) -> T {
        do {
            return try body()
        } catch {
            throw RecordError.wrapping(error, path: path)
        }
    }

    /// ``recordErrors(_:)-(()->T)`` for async work.
    func recordErrors<T>(_ body: () async throws -> T) async throws(RecordError) -> T {
        do {
            return try await body()
        } catch {
            throw RecordError.wrapping(error, path: path)
        }
    }

    /// Forgets the cached schema snapshot (after ``inOneTransaction(undoing:_:)`` rolls back schema
    /// changes it had read, whose version a later change may reach again).
    func forgetSchemaSnapshot() {
        cachedSnapshot.withLock { $0 = nil }
    }

    /// The schema snapshot for the transaction open on `db`. Only ever called before any schema
    /// change in the transaction, so what it caches is committed state (or that of
    /// ``inOneTransaction(undoing:_:)``, forgotten if it rolls back).
    func snapshot(_ db: Database) throws -> SchemaSnapshot {
        let version = try SchemaStorage.version(db)
        if let cached = cachedSnapshot.withLock({ $0 }), cached.version == version {
            return cached
        }
        let snapshot = SchemaSnapshot(version: version, schema: try SchemaStorage.load(db))
        cachedSnapshot.withLock { $0 = snapshot }
        return snapshot
    }
}
