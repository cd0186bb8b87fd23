import Foundation
import TestSupport
import Testing

@testable import RecordKit

/// ``RecordDatabase/inOneTransaction(undoing:_:)``: every read and write joins one transaction,
/// which commits at the end or rolls back whole.
@Suite struct OneTransactionTests {
    struct Stop: Error {}

    @Test func readsSeeEarlierWritesAndAFailingWriteUndoesOnlyItself() async throws {
        let file = TemporaryDatabase()
        let db = try file.open()
        let other = try file.open()
        try await db.inOneTransaction {
            try db.save(Shopping.list("L1", "Groceries"))
            #expect(try db.fetch(recordName: "L1") != nil)
            #expect(throws: RecordError.self) { try db.save(Shopping.list("L2", "Groceries")) }
            try db.save(Shopping.list("L3", "Party"))
            // Another connection sees nothing before the commit.
            #expect(try other.records(matching: Query("Lists")).isEmpty)
        }
        #expect(try other.records(matching: Query("Lists")).recordNames == ["L1", "L3"])
    }

    @Test func throwingRollsBackEverythingSchemaIncluded() async throws {
        let file = TemporaryDatabase()
        let db = try file.open()
        let before = try db.contentDump()
        await #expect(throws: Stop.self) {
            try await db.inOneTransaction {
                try db.save(Shopping.list("L1", "Groceries"))
                try db.addField(FieldDefinition("number", .int64), to: "Items")
                throw Stop()
            }
        }
        #expect(try db.contentDump() == before)
        #expect(try db.schema == Schema.shopping)
        // The schema read inside is forgotten: a later change to the same version is seen.
        try db.addField(FieldDefinition("note", .string), to: "Items")
        #expect(try db.schema.recordType(named: "Items")?.field(named: "note") != nil)
    }

    @Test func undoingTheWholeTransactionWritesWithoutSavepoints() async throws {
        let file = TemporaryDatabase()
        let log = StatementLog()
        let db = try RecordDatabase(path: file.path, bootstrap: .shopping, trace: { log.append($0) })
        try await db.inOneTransaction(undoing: .wholeTransaction) {
            try db.save(Shopping.list("L1", "Groceries"))
            try db.save(Shopping.list("L2", "Party"))
        }
        #expect(!log.statements.contains { $0.hasPrefix("SAVEPOINT") }, "\(log.statements)")
        #expect(try db.records(matching: Query("Lists")).recordNames == ["L1", "L2"])
    }

    @Test func aFailingWriteUndoesTheWholeTransactionAndEndsIt() async throws {
        let file = TemporaryDatabase()
        let db = try file.open()
        let before = try db.contentDump()
        var refusedAfter: RecordError?
        await #expect(throws: RecordError.self) {
            try await db.inOneTransaction(undoing: .wholeTransaction) {
                try db.save(Shopping.list("L1", "Groceries"))
                // The body catches the failure: the transaction still ends with it.
                #expect(throws: RecordError.self) { try db.save(Shopping.list("L2", "Groceries")) }
                do {
                    _ = try db.records(matching: Query("Lists"))
                } catch let error as RecordError {
                    refusedAfter = error
                }
                #expect(throws: RecordError.self) { try db.save(Shopping.list("L3", "Party")) }
            }
        }
        #expect(refusedAfter?.message.contains("an earlier write failed and rolled this transaction back") == true, "\(String(describing: refusedAfter))")
        #expect(try db.contentDump() == before)
        // The database is free again: the next transaction commits.
        _ = try await db.inOneTransaction(undoing: .wholeTransaction) { try db.save(Shopping.list("L4", "Party")) }
        #expect(try db.records(matching: Query("Lists")).recordNames == ["L4"])
    }

    /// An interrupted write makes SQLite roll the whole transaction back on its own, savepoints
    /// and all: under `.thatWrite` the transaction then ends as under `.wholeTransaction`, and
    /// no later write commits by itself.
    @Test func aWriteAfterWhichSQLiteRolledEverythingBackEndsTheTransactionOfSavepoints() async throws {
        let file = TemporaryDatabase()
        let db = try file.open()
        let before = try db.contentDump()
        var refusedAfter: RecordError?
        await #expect(throws: RecordError.self) {
            try await db.inOneTransaction(undoing: .thatWrite) {
                try db.save(Shopping.list("L1", "Groceries"))
                let interrupted = InterruptTests.interrupting(db) {
                    try db.write { transaction in
                        _ = try transaction.rawRows("CREATE TABLE scratch(x)")
                        _ = try transaction.rawRows("INSERT INTO scratch " + InterruptTests.endless.replacingOccurrences(of: "count(*)", with: "x"))
                    }
                }
                #expect(interrupted != nil, "the endless insert was interrupted")
                do {
                    try db.save(Shopping.list("L2", "Party"))
                } catch let error as RecordError {
                    refusedAfter = error
                }
            }
        }
        #expect(refusedAfter?.message.contains("an earlier write failed and rolled this transaction back") == true, "\(String(describing: refusedAfter))")
        #expect(try db.contentDump() == before)
    }

    @Test(arguments: [FailedWriteUndo.thatWrite, .wholeTransaction])
    func aSchemaChangeIsSeenByTheReadsAndWritesAfterIt(undo: FailedWriteUndo) async throws {
        let file = TemporaryDatabase()
        let db = try file.open()
        try await db.inOneTransaction(undoing: undo) {
            try db.save(Shopping.list("L1", "Groceries"))
            #expect(try db.schema.recordType(named: "Items")?.field(named: "number") == nil)
            try db.addField(FieldDefinition("number", .int64), to: "Items")
            #expect(try db.schema.recordType(named: "Items")?.field(named: "number") != nil)
            var item = Shopping.item("I1", "Milk", in: "L1")
            item["number"] = .int64(2)
            try db.save(item)
        }
        #expect(try db.fetch(recordName: "I1")?["number"] == .int64(2))
    }
}
