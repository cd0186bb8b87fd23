import Foundation
import Synchronization
import TestSupport
import Testing

@testable import RecordKit

/// The async twins of `read` and `write`: they wait by suspending, never by holding a thread.
@Suite struct AsyncAccessTests {
    /// 8 async reads started while a write holds the writer (for 2 seconds, and until they are
    /// done or five minutes have passed: a loaded test run may hold the reads back that long)
    /// all finish before the write does: reads never wait for a write.
    @Test func asyncReadsCompleteWhileALongWriteHoldsTheWriter() async throws {
        let file = TemporaryDatabase()
        let db = try file.open()
        try db.save(Shopping.list("L1", "Groceries"))
        let events = EventLog()
        let readsDone = DispatchSemaphore(value: 0)
        let write = await db.holdingTheWriter(creating: Shopping.list("L2", "Hardware"), atLeast: 2, until: readsDone, orAtMost: 300) {
            events.append("write")
        }
        let seen = try await withThrowingTaskGroup(of: [String].self) { group in
            for _ in 0..<8 {
                group.addTask {
                    let names = try await db.read { try $0.records(matching: Query("Lists")).recordNames }
                    events.append("read")
                    return names
                }
            }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        readsDone.signal()
        try await write.value
        #expect(events.all == Array(repeating: "read", count: 8) + ["write"])
        #expect(seen.allSatisfy { $0 == ["L1"] }, "each read saw the snapshot before the write")
        #expect(try await db.read { try $0.records(matching: Query("Lists")).recordNames } == ["L1", "L2"])
    }

    /// With the service's readers (as few as 2), a read that runs on holds one read lane: the
    /// reads after it go to the other lanes and finish meanwhile, many times over. (The long
    /// read gives up after five minutes, so reads queued behind it would finish after it
    /// instead; a loaded test run has held the reads back for more than 30 seconds.)
    @Test func aReadThatRunsOnHoldsUpNoOtherReadOfTheSameDatabase() async throws {
        let file = TemporaryDatabase()
        let db = try RecordDatabase(path: file.path, bootstrap: .shopping, readers: .service)
        try db.save(Shopping.list("L1", "Groceries"))
        let events = EventLog()
        let release = DispatchSemaphore(value: 0)
        let long = Task {
            try await db.read { transaction in
                events.append("long read started")
                _ = release.wait(timeout: .now() + 300)
                events.append("long read ended")
                return try transaction.count(matching: Query("Lists"))
            }
        }
        try await Self.waitUntil { !events.all.isEmpty }
        for _ in 0..<20 {
            #expect(try await db.read { try $0.count(matching: Query("Lists")) } == 1)
        }
        events.append("20 reads done")
        release.signal()
        #expect(try await long.value == 1)
        #expect(events.all == ["long read started", "20 reads done", "long read ended"])
    }

    /// An async read is one snapshot: a commit from another connection between two of its
    /// statements is not seen by the second, and is seen by the next read.
    @Test func anAsyncReadSeesOneSnapshotWhileAnotherConnectionCommits() async throws {
        let file = TemporaryDatabase()
        let db = try file.open()
        let other = try file.open()
        try db.save(Shopping.list("L1", "Groceries"))
        let seen = try await db.read { transaction in
            let before = try transaction.records(matching: Query("Lists")).recordNames
            try other.save(Shopping.list("L2", "Hardware"))
            return (before, try transaction.records(matching: Query("Lists")).recordNames)
        }
        #expect(seen.0 == ["L1"] && seen.1 == ["L1"])
        #expect(try await db.read { try $0.records(matching: Query("Lists")).recordNames } == ["L1", "L2"])
    }

    /// A read whose body fails still ends its transaction: every reader connection, used by a
    /// failing read, then sees a later commit (one left inside its snapshot would not, and GRDB
    /// stops the process when a connection goes back to its pool inside a transaction).
    @Test func aFailingAsyncReadLeavesNoReaderInsideItsSnapshot() async throws {
        struct Refused: Error {}
        let file = TemporaryDatabase()
        let db = try file.open()
        try db.save(Shopping.list("L1", "Groceries"))
        try await withThrowingTaskGroup(of: Void.self) { group in
            for _ in 0..<(db.readers.count * 4) {
                group.addTask {
                    await #expect(throws: Refused.self) {
                        try await db.read { transaction -> Int in
                            _ = try transaction.records(matching: Query("Lists"))
                            throw Refused()
                        }
                    }
                }
            }
            try await group.waitForAll()
        }
        try db.save(Shopping.list("L2", "Hardware"))
        for _ in 0..<(db.readers.count * 4) {
            #expect(try await db.read { try $0.records(matching: Query("Lists")).recordNames } == ["L1", "L2"])
        }
    }

    /// Another process holds the file's write lock. Many more async writes than the cooperative
    /// pool has threads wait for it by suspending: once they are all retrying, the database's
    /// writer thread is free (a busy handler waiting inside SQLite would hold it until the lock
    /// is released), an unrelated task runs, and the writes go on retrying, all while the lock
    /// is still held; once it is released every write lands.
    ///
    /// Nothing is timed: a loaded machine only makes it slower. Were a thread blocked while a
    /// write waits, the probes could only finish after the other process let go (after five
    /// minutes at most), and the test fails.
    @Test func asyncWritesWaitingForALockHeldByAnotherProcessSuspendInsteadOfBlocking() async throws {
        let file = TemporaryDatabase()
        _ = try file.open()
        // Every statement is traced, to see the writes try (`BEGIN IMMEDIATE`) and be refused.
        // They retry for long enough that a test suite starving this task for a while does not
        // make them give up before the lock is released.
        let log = StatementLog()
        let db = try RecordDatabase(location: file.path, bootstrap: .shopping, trace: { log.append($0) }, busyRetryTime: .seconds(600))
        let writesBefore = log.statements.count { $0.hasPrefix("BEGIN IMMEDIATE") }
        let attempts = { log.statements.count { $0.hasPrefix("BEGIN IMMEDIATE") } - writesBefore }
        let locker = try ExclusiveLockHolder(path: file.path, atMostSeconds: 300)
        let writers = ProcessInfo.processInfo.activeProcessorCount * 16
        let landed = EventLog()
        let writes = Task {
            try await withThrowingTaskGroup(of: Void.self) { group in
                for index in 0..<writers {
                    group.addTask {
                        try await db.write { _ = try $0.apply(.create(Shopping.list("L\(index)", "List \(index)"))) }
                        landed.append("L\(index)")
                    }
                }
                try await group.waitForAll()
            }
        }
        // However long a loaded machine takes, wait until the writes have been refused at least
        // as many times as there are writes: from then on they are in their busy retries.
        try await Self.waitUntil { attempts() >= writers }
        let refusedBefore = attempts()
        #expect(refusedBefore >= writers, "the writes reached the lock")
        let unrelated = await Task { (1...1000).reduce(0, +) }.value
        #expect(unrelated == 500_500)
        let probe = try await db.rawRowsOnWriter("SELECT 1")
        #expect(probe == [["1"]])
        try await Self.waitUntil { attempts() > refusedBefore }
        #expect(attempts() > refusedBefore, "the writes went on retrying")
        #expect(locker.isHoldingTheLock, "the writer thread and an unrelated task ran, and the writes retried, while the lock was held")
        #expect(landed.all.isEmpty, "no write got past the lock")
        locker.release()
        try await writes.value
        #expect(try await db.read { try $0.count(matching: Query("Lists")) } == writers)
    }

    /// Returns once `condition` holds, or after four minutes (the caller's expectation then fails).
    static func waitUntil(_ condition: () -> Bool) async throws {
        let deadline = ContinuousClock.now + .seconds(240)
        while !condition(), ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(10))
        }
    }

    struct Oops: Error, Equatable {}

    @Test func theBodysOwnErrorIsRethrownUnchangedAndTheWriteRollsBack() async throws {
        let db = try RecordDatabase.inMemory(bootstrap: .shopping)
        #expect(throws: Oops()) {
            try db.write {
                _ = try $0.apply(.create(Shopping.list("L1", "Groceries"))); throw Oops()
            }
        }
        #expect(throws: Oops()) { try db.read { _ in throw Oops() } }
        await #expect(throws: Oops()) {
            try await db.write {
                _ = try $0.apply(.create(Shopping.list("L1", "Groceries"))); throw Oops()
            }
        }
        await #expect(throws: Oops()) { try await db.read { _ in throw Oops() } }
        #expect(try db.records(matching: Query("Lists")).isEmpty)
    }

    @Test func theEnginesOwnErrorsComeOutAsRecordErrors() async throws {
        let db = try RecordDatabase.inMemory(bootstrap: .shopping)
        await #expect { try await db.read { try $0.records(matching: Query("Nope")) } } throws: {
            ($0 as? RecordError)?.code == .schemaViolation
        }
    }
}

/// Another process holding `BEGIN EXCLUSIVE` on a database until told to let go (or for at most
/// `atMostSeconds`).
final class ExclusiveLockHolder: Sendable {
    private let child: ChildProcess

    /// Starts the process and returns once it holds the lock.
    init(path: String, atMostSeconds: Int) throws {
        child = try ChildProcess(
            "/usr/bin/env",
            [
                "python3", "-c",
                """
                import select, sqlite3, sys
                connection = sqlite3.connect(sys.argv[1], isolation_level=None, timeout=60)
                connection.execute("BEGIN EXCLUSIVE")
                print("locked", flush=True)
                select.select([sys.stdin], [], [], float(sys.argv[2]))
                connection.execute("COMMIT")
                """,
                path, String(atMostSeconds),
            ],
            input: .pipe)
        guard child.nextOutput(7, within: 60) == "locked\n" else {
            child.kill()
            throw RecordError(.internalError, "the process holding the lock did not start")
        }
    }

    /// Whether the process still holds the lock.
    var isHoldingTheLock: Bool { child.isRunning }

    /// Lets go of the lock.
    func release() {
        _ = try? child.finish()
    }
}

/// Events in the order they happened, from any thread.
final class EventLog: Sendable {
    private let events = Mutex<[String]>([])

    func append(_ event: String) {
        events.withLock { $0.append(event) }
    }

    var all: [String] { events.withLock { $0 } }
}

extension RecordDatabase {
    /// Starts an async write that creates `record`, then holds the writer for `minimum` seconds
    /// and until `release` is signalled (or `maximum` seconds have passed), calls `done`, and
    /// commits; returns once the write holds the writer, with its task.
    func holdingTheWriter(
        creating record: Record, atLeast minimum: Double = 0, until release: DispatchSemaphore, orAtMost maximum: Double,
        then done: @escaping @Sendable () -> Void = {}
    ) async -> Task<Void, any Error> {
        let holding = DispatchSemaphore(value: 0)
        let write = Task {
            try await self.write { transaction in
                _ = try transaction.apply(.create(record))
                holding.signal()
                Thread.sleep(forTimeInterval: minimum)
                _ = release.wait(timeout: .now() + maximum)
                done()
            }
        }
        // Waited for on a thread of Dispatch's own: a wait on a thread of the cooperative pool
        // could hold back the write that signals.
        await withCheckedContinuation { continuation in
            DispatchQueue.global().async {
                holding.wait()
                continuation.resume()
            }
        }
        return write
    }
}
