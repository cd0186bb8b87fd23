import Foundation
import TestSupport
import Testing

@testable import RecordKit

/// The commit notices behind live queries: told after a commit with the record types it
/// touched, never for a rollback, and for commits made through another connection to the file
/// (as another process makes them).
@Suite
struct CommitNoticeTests {
    private struct Refused: Error {}

    @Test func aCommitIsToldWithTheRecordTypesItTouched() async throws {
        let file = TemporaryDatabase()
        let db = try file.open()
        var notices = db.commitNotices().makeAsyncIterator()
        try await db.write { transaction in
            _ = try transaction.apply(.create(Shopping.list("L1", "Groceries")))
            _ = try transaction.apply(.create(Shopping.item("I1", "Milk", in: "L1")))
        }
        #expect(await notices.next() == CommitNotice(recordTypes: ["Lists", "Items"]))
        _ = try await db.write { try $0.delete(recordName: "L1") }
        #expect(await notices.next() == CommitNotice(recordTypes: ["Lists", "Items"]))
    }

    @Test func aRolledBackTransactionIsNeverTold() async throws {
        let file = TemporaryDatabase()
        let db = try file.open()
        _ = try db.save(Shopping.list("L1", "Groceries"))
        var notices = db.commitNotices().makeAsyncIterator()
        #expect(throws: Refused.self) {
            try db.write { transaction in
                _ = try transaction.apply(.create(Shopping.list("L2", "Hardware")))
                throw Refused()
            }
        }
        await #expect(throws: Refused.self) {
            try await db.write { transaction in
                _ = try transaction.apply(.create(Shopping.list("L3", "Garden")))
                throw Refused()
            }
        }
        _ = try db.save(Shopping.item("I1", "Milk", in: "L1"))
        // Notices merge while no one takes them: a told rollback would have added Lists.
        #expect(await notices.next() == CommitNotice(recordTypes: ["Items"]))
    }

    @Test func aCommitThroughAnotherConnectionToTheFileIsTold() async throws {
        let file = TemporaryDatabase()
        let db = try file.open()
        let other = try file.open()
        let subscription = db.commitNotices()
        var notices = subscription.makeAsyncIterator()
        // The watch for other writers starts with the first subscriber: wait for its first look.
        await subscription.ready()
        _ = try other.save(Shopping.list("L1", "Groceries"))
        #expect(await notices.next() == CommitNotice(recordTypes: ["Lists"]))
        _ = try other.save(Shopping.item("I1", "Milk", in: "L1"))
        #expect(await notices.next() == CommitNotice(recordTypes: ["Items"]))
    }

    @Test func aSubscriberReadyBeforeItReadsMissesNoCommitOfAnotherConnection() async throws {
        let file = TemporaryDatabase()
        let db = try file.open()
        let other = try file.open()
        // The watch looks on the writer's connection: kept busy, its first look comes late.
        let busy = Task {
            try await db.rawRowsOnWriter("WITH RECURSIVE n(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM n WHERE x < 4000000) SELECT count(*) FROM n")
        }
        try await Task.sleep(for: .milliseconds(100))
        let notices = db.commitNotices()
        await notices.ready()
        // What a live query does: read, then wait for commits. One made between the read and
        // a first look of the watch after it would be the watch's starting point, never told.
        #expect(try db.records(matching: Query("Lists")).isEmpty)
        _ = try other.save(Shopping.list("L1", "Groceries"))
        let told = await withTaskGroup(of: CommitNotice?.self) { group in
            group.addTask {
                var iterator = notices.makeAsyncIterator()
                return await iterator.next()
            }
            group.addTask {
                try? await Task.sleep(for: .seconds(30))
                return nil
            }
            let first = await group.next() ?? nil
            group.cancelAll()
            return first
        }
        #expect(told == CommitNotice(recordTypes: ["Lists"]))
        _ = try await busy.value
    }

    @Test func noticesStopWhenTheSubscriberGoesAway() async throws {
        let db = try TemporaryDatabase().open()
        var subscription: CommitNotices? = db.commitNotices()
        #expect(db.commits.hasSubscribers)
        _ = subscription
        subscription = nil
        #expect(!db.commits.hasSubscribers)
    }
}
