import Foundation
import TestSupport
import Testing

@testable import RecordKit

@Suite struct BatchTests {
    /// The 3rd of 5 operations fails: every table, the change log included, is as before.
    @Test(arguments: [
        RecordOperation.create(Shopping.list("L1", "Duplicate")),
        .create(Record("Items", recordName: "bad", fields: ["name": .int64(3)])),
        .create(Shopping.item("I9", "Ghost", in: "missing")),
        .delete(recordName: "missing"),
        .update(recordType: "Items", recordName: "I1", fields: ["nope": .string("x")]),
        .save(Shopping.list("L1", "Stale"), ifChangeTag: "stale"),
    ])
    func aBatchWhoseThirdOperationFailsChangesNothing(failing: RecordOperation) throws {
        let db = try RecordDatabase.inMemory(bootstrap: .shopping)
        try db.modify([.create(Shopping.list("L1", "Groceries")), .create(Shopping.item("I1", "Milk", in: "L1"))])
        let before = try db.contentDump()
        #expect(throws: RecordError.self) {
            try db.modify([
                .create(Shopping.list("L2", "Hardware")),
                .update(recordType: "Items", recordName: "I1", fields: ["name": .string("Oat milk")]),
                failing,
                .delete(recordName: "L1"),
                .create(Shopping.item("I2", "Eggs", in: "L2")),
            ])
        }
        #expect(try db.contentDump() == before)
    }

    @Test func aStaleChangeTagIsRejectedAndChangesNothing() throws {
        let db = try RecordDatabase.inMemory(bootstrap: .shopping)
        let first = try db.save(Shopping.list("L1", "Groceries"))
        let second = try db.save(Shopping.list("L1", "Food"), ifChangeTag: first.changeTag)
        #expect(second.changeTag != first.changeTag)
        let before = try db.contentDump()
        #expect {
            try db.save(Shopping.list("L1", "Lost update"), ifChangeTag: first.changeTag)
        } throws: { ($0 as? RecordError)?.code == .serverRecordChanged }
        #expect {
            try db.update(recordType: "Lists", recordName: "L1", fields: ["name": .string("x")], ifChangeTag: first.changeTag)
        } throws: { ($0 as? RecordError)?.code == .serverRecordChanged }
        #expect(try db.contentDump() == before)
        #expect(try db.fetch(recordName: "L1")?["name"] == .string("Food"))
    }

    @Test func everySaveChangesTheChangeTag() throws {
        let db = try RecordDatabase.inMemory(bootstrap: .shopping)
        var tags: Set<String?> = []
        for index in 0..<20 {
            tags.insert(try db.save(Shopping.list("L1", "v\(index)")).changeTag)
        }
        #expect(tags.count == 20)
    }

    @Test func creatingAnExistingRecordFails() throws {
        let db = try RecordDatabase.inMemory(bootstrap: .shopping)
        try db.create(Shopping.list("L1", "Groceries"))
        #expect { try db.create(Shopping.list("L1", "Again")) } throws: { ($0 as? RecordError)?.code == .serverRecordChanged }
    }

    @Test func creatingANameAnotherTypeHoldsFailsNamingThatType() throws {
        let db = try RecordDatabase.inMemory(bootstrap: .shopping)
        try db.create(Shopping.list("X", "Groceries"))
        #expect { try db.create(Shopping.item("X", "Milk", in: "X")) } throws: {
            ($0 as? RecordError)?.code == .invalidArguments && "\($0)".contains("already names a Lists record")
        }
    }

    @Test func aBatchCreatingOneNameTwiceAppliesNothing() throws {
        let db = try RecordDatabase.inMemory(bootstrap: .shopping)
        try db.create(Shopping.list("L1", "Groceries"))
        let before = try db.contentDump()
        #expect {
            try db.modify([.create(Shopping.item("I1", "Milk", in: "L1")), .create(Shopping.item("I1", "Eggs", in: "L1"))])
        } throws: { ($0 as? RecordError)?.code == .invalidArguments && "\($0)".contains("creates a record named 'I1' twice") }
        #expect(try db.contentDump() == before)
    }

    @Test func recordNamesAreUniqueAcrossRecordTypes() throws {
        let db = try RecordDatabase.inMemory(bootstrap: .shopping)
        try db.save(Shopping.list("X", "Groceries"))
        #expect { try db.save(Shopping.item("X", "Milk", in: "X")) } throws: { ($0 as? RecordError)?.code == .invalidArguments }
    }

    @Test func aTransactionRetriedThreeTimesIsAppliedOnce() throws {
        let db = try RecordDatabase.inMemory(bootstrap: .shopping)
        try db.save(Shopping.list("L1", "Groceries"))
        let batch: [RecordOperation] = [.create(Shopping.item("I1", "Milk", in: "L1")), .create(Shopping.item("I2", "Eggs", in: "L1"))]
        let first = try db.modify(batch, transactionID: "tx-1")
        #expect(!first.isReplay)
        let changesAfterFirst = try db.changes()
        for _ in 0..<3 {
            let retry = try db.modify(batch, transactionID: "tx-1")
            #expect(retry.isReplay)
            #expect(retry.results == first.results)
        }
        #expect(try db.count("Items") == 2)
        #expect(try db.changes() == changesAfterFirst)
        #expect(try db.transactions().map(\.id) == ["tx-1"])
    }

    @Test func theSameTransactionIDWithAnotherRequestConflicts() throws {
        let db = try RecordDatabase.inMemory(bootstrap: .shopping)
        try db.modify([.create(Shopping.list("L1", "Groceries"))], transactionID: "tx-1")
        let before = try db.contentDump()
        #expect {
            try db.modify([.create(Shopping.list("L2", "Other"))], transactionID: "tx-1")
        } throws: { ($0 as? RecordError)?.code == .transactionConflict }
        #expect(try db.contentDump() == before)
    }

    @Test func aFailedTransactionStoresNothingSoItsRetryRunsAgain() throws {
        let db = try RecordDatabase.inMemory(bootstrap: .shopping)
        let batch: [RecordOperation] = [.create(Shopping.item("I1", "Milk", in: "L1"))]
        #expect { try db.modify(batch, transactionID: "tx") } throws: { ($0 as? RecordError)?.code == .referenceViolation }
        #expect(try db.transactions().isEmpty)
        try db.save(Shopping.list("L1", "Groceries"))
        #expect(try !db.modify(batch, transactionID: "tx").isReplay)
    }

    @Test func storedTransactionsCanBeShownAndDeleted() throws {
        let db = try RecordDatabase.inMemory(bootstrap: .shopping)
        try db.modify([.create(Shopping.list("L1", "Groceries"))], transactionID: "tx-1")
        let stored = try db.transaction(id: "tx-1")
        #expect(stored.request.contains("Groceries"))
        #expect(stored.result.contains("L1"))
        try db.deleteTransaction(id: "tx-1")
        #expect(try db.transactions().isEmpty)
        #expect { try db.transaction(id: "tx-1") } throws: { ($0 as? RecordError)?.code == .unknownItem }
        #expect { try db.deleteTransaction(id: "tx-1") } throws: { ($0 as? RecordError)?.code == .unknownItem }
    }

    @Test func theChangeLogRecordsEverySaveAndDeleteInOrder() throws {
        let db = try RecordDatabase.inMemory(bootstrap: .shopping)
        try db.save(Shopping.list("L1", "Groceries"))
        try db.save(Shopping.item("I1", "Milk", in: "L1"))
        try db.delete(recordName: "L1")
        let log = try db.changes().map { "\($0.kind.rawValue) \($0.recordType) \($0.recordName)" }
        #expect(log == ["saved Lists L1", "saved Items I1", "deleted Lists L1", "deleted Items I1"])
        let sequences = try db.changes().map(\.sequence)
        #expect(sequences == sequences.sorted())
        #expect(try db.changes(after: sequences[1]).count == 2)
    }
}
