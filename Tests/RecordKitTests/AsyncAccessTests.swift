import Foundation
import Synchronization
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
        let writeStarted = DispatchSemaphore(value: 0)
        let readsDone = DispatchSemaphore(value: 0)
        let write = Task {
            try await db.write { transaction in
                _ = try transaction.apply(.create(Shopping.list("L2", "Hardware")))
                writeStarted.signal()
                Thread.sleep(forTimeInterval: 2)
                _ = readsDone.wait(timeout: .now() + 300)
                events.append("write")
            }
        }
        await withCheckedContinuation { continuation in
            DispatchQueue.global().async {
                writeStarted.wait()
                continuation.resume()
            }
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

    /// Another process holds the file's write lock. Many more async writes than the cooperative
    /// pool has threads wait for it by suspending: meanwhile the database's writer thread is
    /// free (a busy handler waiting inside SQLite would hold it until the lock is released) and
    /// an unrelated task runs; once the lock is released every write lands.
    @Test func asyncWritesWaitingForALockHeldByAnotherProcessSuspendInsteadOfBlocking() async throws {
        let file = TemporaryDatabase()
        // Retried for long enough that a test suite starving this task for a while does not
        // make the writes give up before the lock is released.
        _ = try file.open()
        let db = try RecordDatabase(location: file.path, bootstrap: nil, trace: nil, busyRetryTime: .seconds(600))
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
        // Let the writes reach the lock and start retrying.
        try await Task.sleep(for: .milliseconds(300))
        let unrelated = await Task { (1...1000).reduce(0, +) }.value
        #expect(unrelated == 500_500)
        let probe = try await db.writer.writeWithoutTransaction { db in try Int.fetchOne(db, sql: "SELECT 1") }
        #expect(probe == 1)
        #expect(locker.isHoldingTheLock, "the writer thread and an unrelated task ran while the lock was held")
        #expect(landed.all.isEmpty, "no write got past the lock")
        locker.release()
        try await writes.value
        #expect(try await db.read { try $0.count(matching: Query("Lists")) } == writers)
    }

    struct Oops: Error, Equatable {}

    @Test func theBodysOwnErrorIsRethrownUnchangedAndTheWriteRollsBack() async throws {
        let db = try RecordDatabase.inMemory()
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
        let db = try RecordDatabase.inMemory()
        await #expect { try await db.read { try $0.records(matching: Query("Nope")) } } throws: {
            ($0 as? RecordError)?.code == .schemaViolation
        }
    }
}

/// Another process holding `BEGIN EXCLUSIVE` on a database until told to let go (or for at most
/// `atMostSeconds`).
final class ExclusiveLockHolder: Sendable {
    private let process: Process
    private let input: Pipe

    /// Starts the process and returns once it holds the lock.
    init(path: String, atMostSeconds: Int) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = [
            "python3", "-c",
            """
            import select, sqlite3, sys
            connection = sqlite3.connect(sys.argv[1], isolation_level=None)
            connection.execute("BEGIN EXCLUSIVE")
            print("locked", flush=True)
            select.select([sys.stdin], [], [], float(sys.argv[2]))
            connection.execute("COMMIT")
            """,
            path, String(atMostSeconds),
        ]
        let output = Pipe()
        let input = Pipe()
        process.standardOutput = output
        process.standardInput = input
        try process.run()
        self.process = process
        self.input = input
        let line = output.fileHandleForReading.readData(ofLength: 7)
        guard String(decoding: line, as: UTF8.self) == "locked\n" else {
            process.terminate()
            throw RecordError(.internalError, "the process holding the lock did not start")
        }
    }

    /// Whether the process still holds the lock.
    var isHoldingTheLock: Bool { process.isRunning }

    /// Lets go of the lock.
    func release() {
        try? input.fileHandleForWriting.close()
        process.waitUntilExit()
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
