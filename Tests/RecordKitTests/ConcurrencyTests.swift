import Foundation
import Testing

@testable import RecordKit

@Suite struct ConcurrencyTests {
    /// A read runs to completion while a write transaction is still open, and sees the state
    /// before that write (WAL snapshot isolation).
    @Test func readsProceedWhileAWriteIsRunning() async throws {
        let file = TemporaryDatabase()
        let db = try file.open()
        try db.save(Shopping.list("L1", "Groceries"))
        let writeStarted = DispatchSemaphore(value: 0)
        let readDone = DispatchSemaphore(value: 0)
        let writer = Task.detached {
            try db.write { transaction in
                _ = try transaction.apply(.create(Shopping.list("L2", "Hardware")))
                writeStarted.signal()
                // Hold the write transaction open until the reader has finished.
                #expect(readDone.wait(timeout: .now() + 10) == .success, "the read was blocked by the write")
            }
        }
        writeStarted.wait()
        let seen = try db.records(matching: Query("Lists")).recordNames
        readDone.signal()
        try await writer.value
        #expect(seen == ["L1"])
        #expect(try db.records(matching: Query("Lists")).recordNames == ["L1", "L2"])
    }

    /// One database shared by many tasks: every write lands, no error.
    @Test func oneDatabaseIsSharedSafelyAcrossTasks() async throws {
        let file = TemporaryDatabase()
        let db = try file.open()
        try db.save(Shopping.list("L1", "Groceries"))
        try await withThrowingTaskGroup(of: Void.self) { group in
            for worker in 0..<8 {
                group.addTask {
                    for index in 0..<25 {
                        try db.save(Shopping.item("W\(worker)-\(index)", "Item \(worker)-\(index)", in: "L1"))
                        _ = try db.records(matching: Shopping.itemsOf("L1"))
                    }
                }
            }
            try await group.waitForAll()
        }
        #expect(try db.records(matching: Shopping.itemsOf("L1")).count == 200)
        #expect(try db.changes(limit: 1000).count == 201)
    }
}
