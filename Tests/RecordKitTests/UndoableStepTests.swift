import Foundation
import TestSupport
import Testing

@testable import RecordKit

/// Steps of a transaction that fail alone (non-atomic batches) and deletes guarded by a change tag.
@Suite struct UndoableStepTests {
    @Test func aFailedStepIsUndoneWhileTheOthersCommit() throws {
        let db = try RecordDatabase.inMemory(bootstrap: .shopping)
        try db.create(Shopping.list("L1", "Groceries"))
        let outcomes: [Bool] = try db.write { transaction in
            func succeeds(_ step: () throws -> Void) -> Bool {
                do {
                    try transaction.undoingOnFailure(step)
                    return true
                } catch {
                    return false
                }
            }
            return [
                succeeds { _ = try transaction.save(Shopping.list("L2", "Hardware"), mode: .create) },
                // Saves one record, then fails: the saved record must go too.
                succeeds {
                    _ = try transaction.save(Shopping.list("L3", "Half done"), mode: .create)
                    _ = try transaction.save(Shopping.list("L1", "Duplicate"), mode: .create)
                },
                succeeds { _ = try transaction.delete(recordName: "L1") },
            ]
        }
        #expect(outcomes == [true, false, true])
        #expect(try db.fetch(recordNames: ["L1", "L2", "L3"]).recordNames == ["L2"])
        // The change log holds what committed, and nothing of the undone step.
        let logged = try db.changes().map { "\($0.kind.rawValue) \($0.recordName)" }
        #expect(logged == ["saved L1", "saved L2", "deleted L1"])
    }

    @Test func deletingWithTheCurrentChangeTagDeletesTheCascade() throws {
        let db = try RecordDatabase.inMemory(bootstrap: .shopping)
        let list = try db.create(Shopping.list("L1", "Groceries"))
        try db.create(Shopping.item("I1", "Milk", in: "L1"))
        let result = try db.write { try $0.delete(recordName: "L1", ifChangeTag: list.changeTag) }
        #expect(result.recordType == "Lists")
        #expect(result.deleted == ["L1", "I1"])
    }

    @Test func deletingWithAStaleChangeTagDeletesNothing() throws {
        let db = try RecordDatabase.inMemory(bootstrap: .shopping)
        let first = try db.create(Shopping.list("L1", "Groceries"))
        try db.save(Shopping.list("L1", "Food"))
        #expect {
            try db.write { try $0.delete(recordName: "L1", ifChangeTag: first.changeTag) }
        } throws: { ($0 as? RecordError)?.code == .serverRecordChanged }
        #expect(try db.fetch(recordName: "L1") != nil)
        #expect {
            try db.write { try $0.delete(recordName: "nope", ifChangeTag: nil) }
        } throws: { ($0 as? RecordError)?.code == .unknownItem }
    }

    @Test func aSchemaGrownInsideATransactionCommitsWithItsWritesAndGoesWithAFailedStep() throws {
        let db = try RecordDatabase.inMemory(bootstrap: .shopping)
        try db.create(Shopping.list("L1", "Groceries"))
        let withColor = try db.schema.applying([.addField(recordType: "Lists", FieldDefinition("color", .string))])
        let withFloor = try db.schema.applying([.addField(recordType: "Lists", FieldDefinition("floor", .int64))])
        // A write that fails after growing the schema leaves neither the field nor the record.
        #expect(throws: RecordError.self) {
            try db.write { transaction in
                #expect(try transaction.extendSchema(to: withColor).count == 1)
                _ = try transaction.save(Record("Lists", recordName: "L2", fields: ["name": .string("Red"), "color": .string("red")]), mode: .create)
                _ = try transaction.save(Shopping.list("L1", "Duplicate"), mode: .create)
            }
        }
        #expect(try db.schema.recordType(named: "Lists")?.field(named: "color") == nil)
        #expect(try db.fetch(recordName: "L2") == nil)
        // A failed step undoes its growth, and the transaction works under the schema before it.
        try db.write { transaction in
            #expect(throws: RecordError.self) {
                try transaction.undoingOnFailure {
                    try transaction.extendSchema(to: withFloor)
                    _ = try transaction.save(Shopping.list("L1", "Duplicate"), mode: .create)
                }
            }
            #expect(transaction.schema.recordType(named: "Lists")?.field(named: "floor") == nil)
            try transaction.extendSchema(to: withColor)
            _ = try transaction.save(Record("Lists", recordName: "L2", fields: ["name": .string("Red"), "color": .string("red")]), mode: .create)
            // Growing again to what is there already changes nothing.
            #expect(try transaction.extendSchema(to: withColor).isEmpty)
        }
        let lists = try db.schema.recordType(named: "Lists")
        #expect(lists?.field(named: "color")?.type == .string && lists?.field(named: "floor") == nil)
        #expect(try db.fetch(recordName: "L2")?["color"] == .string("red"))
    }

}
