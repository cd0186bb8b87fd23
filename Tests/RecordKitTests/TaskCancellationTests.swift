import Foundation
import Testing

@testable import RecordKit

/// A cancelled task's async read or write: work that has not started does not run, a statement
/// running for it is interrupted (only its own), and the task gets `CancellationError`.
@Suite struct TaskCancellationTests {
    @Test func aTaskCancelledBeforeItsReadGetsCancellationError() async throws {
        let file = TemporaryDatabase()
        let db = try file.open()
        let ran = EventLog()
        let read = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            return try await db.read { transaction in
                ran.append("read")
                return try transaction.count(matching: Query("Lists"))
            }
        }
        await #expect(throws: CancellationError.self) { try await read.value }
        #expect(ran.all.isEmpty)
    }

    /// Two endless reads run at once, each on its own reader; cancelling one stops only its
    /// statement: the other goes on until it is cancelled in turn.
    @Test func aCancelledReadStopsOnlyItsOwnStatement() async throws {
        let file = TemporaryDatabase()
        let db = try file.open()
        let started = EventLog()
        let ended = EventLog()
        let endless = { (name: String) in
            Task {
                defer { ended.append(name) }
                return try await db.read { transaction in
                    started.append(name)
                    return try transaction.rawRows(InterruptTests.endless)
                }
            }
        }
        let first = endless("first")
        let second = endless("second")
        try await AsyncAccessTests.waitUntil { started.all.count == 2 }
        #expect(started.all.count == 2, "both reads started")

        first.cancel()
        #expect(await Self.failure(of: first) is CancellationError)
        try await Task.sleep(for: .milliseconds(200))
        #expect(ended.all == ["first"], "the other read still runs")

        second.cancel()
        #expect(await Self.failure(of: second) is CancellationError)
        #expect(try await db.read { try $0.count(matching: Query("Lists")) } == 0, "the readers serve new reads")
    }

    /// A write cancelled while it waits for the writer, held by a long write, never runs: what it
    /// would have saved is not there after the long write commits.
    @Test func aWriteCancelledWhileItWaitsForTheWriterDoesNotRun() async throws {
        let file = TemporaryDatabase()
        let db = try file.open()
        let release = DispatchSemaphore(value: 0)
        // Held until the test releases it (the bound only keeps a broken test from hanging): a
        // machine starved for a minute must not let the waiting write run before it is cancelled.
        let long = await db.holdingTheWriter(creating: Shopping.list("L1", "Groceries"), until: release, orAtMost: 600)
        let waiting = Task { try await db.write { _ = try $0.apply(.create(Shopping.list("L2", "Hardware"))) } }
        try await Task.sleep(for: .milliseconds(200))
        waiting.cancel()
        release.signal()
        try await long.value
        #expect(await Self.failure(of: waiting) is CancellationError)
        #expect(try await db.read { try $0.records(matching: Query("Lists")).recordNames } == ["L1"])
    }

    /// What `task` threw (`nil` if it succeeded), waiting at most a minute: a task still
    /// running after that is recorded as an issue.
    static func failure<T: Sendable>(of task: Task<T, any Error>) async -> (any Error)? {
        let first = await withTaskGroup(of: Result<Void, any Error>.self) { group in
            group.addTask { await task.result.map { _ in } }
            group.addTask {
                try? await Task.sleep(for: .seconds(60))
                return .failure(StillRunning())
            }
            defer { group.cancelAll() }
            return await group.next()!
        }
        switch first {
        case .success: return nil
        case .failure(let error as StillRunning):
            Issue.record("the task did not end within a minute of being cancelled")
            return error
        case .failure(let error): return error
        }
    }

    /// A task that had not ended a minute after it was cancelled.
    struct StillRunning: Error {}
}
