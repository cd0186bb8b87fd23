import Dispatch
import Foundation
import Synchronization
import Testing

@testable import RecordKit

/// ``RecordDatabase/interrupt()``: the statement running fails at once and its transaction
/// rolls back (what Ctrl-C in the REPL relies on).
@Suite struct InterruptTests {
    /// A statement that runs until it is interrupted.
    static let endless = "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c) SELECT count(*) FROM c"

    /// Runs `work` on a thread of its own (it blocks until interrupted), interrupts `db` once
    /// it has started, and returns what `work` threw; `nil` when it did not end within 30 s.
    static func interrupting(_ db: RecordDatabase, _ work: @escaping @Sendable () throws -> Void) -> (any Error)? {
        let failure = Mutex<(any Error)?>(nil)
        let done = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            do { try work() } catch { failure.withLock { $0 = error } }
            done.signal()
        }
        Thread.sleep(forTimeInterval: 0.2)
        db.interrupt()
        guard done.wait(timeout: .now() + 30) == .success else { return nil }
        return failure.withLock { $0 }
    }

    @Test func anInterruptedWriteRollsBackWhole() throws {
        let file = TemporaryDatabase()
        let db = try file.open()
        let error = Self.interrupting(db) {
            try db.write { transaction in
                _ = try transaction.apply(.create(Shopping.list("L1", "Groceries")))
                _ = try transaction.rawRows(Self.endless)
            }
        }
        #expect((error as? RecordKit.RecordError) != nil, "\(String(describing: error))")
        #expect(try db.fetch(recordName: "L1") == nil)
        try db.save(Shopping.list("L2", "Party"))
    }

    @Test func anInterruptedReadFailsAndTheDatabaseGoesOn() throws {
        let file = TemporaryDatabase()
        let db = try file.open()
        let error = Self.interrupting(db) {
            _ = try db.read { transaction in try transaction.rawRows(Self.endless) }
        }
        #expect((error as? RecordKit.RecordError) != nil, "\(String(describing: error))")
        #expect(try db.records(matching: Query("Lists")).isEmpty)
    }
}
