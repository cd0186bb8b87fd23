import Foundation
import TestSupport
import Testing

@testable import RecordKit

/// `RecordOperation.requireUnchanged`: a batch's precondition on a record's change tag, which
/// writes nothing itself and refuses the whole batch when the record moved on.
@Suite struct RequireUnchangedTests {
    private func database() throws -> RecordDatabase {
        let db = try RecordDatabase.inMemory(bootstrap: .shopping)
        try db.save(Shopping.list("L1", "Groceries"))
        return db
    }

    @Test func aRecordThatStillHasItsChangeTagLetsTheBatchApplyAndIsNotWritten() throws {
        let db = try database()
        let list = try #require(try db.fetch(recordName: "L1"))
        let changesBefore = try db.changes(after: 0, limit: 100).count
        let batch = try db.modify([
            .requireUnchanged(recordName: "L1", changeTag: try #require(list.changeTag)), .create(Shopping.item("I1", "Milk", in: "L1")),
        ])
        #expect(batch.results.first == .unchanged(recordName: "L1"))
        #expect(try db.fetch(recordName: "L1") == list)
        #expect(try db.fetch(recordName: "I1") != nil)
        #expect(try db.changes(after: 0, limit: 100).count == changesBefore + 1, "only the item is a change")
    }

    @Test func aRecordChangedSinceItWasReadRefusesTheWholeBatch() throws {
        let db = try database()
        let read = try #require(try db.fetch(recordName: "L1")?.changeTag)
        try db.update(recordType: "Lists", recordName: "L1", fields: ["name": .string("Hardware")])
        #expect {
            try db.modify([.create(Shopping.item("I1", "Milk", in: "L1")), .requireUnchanged(recordName: "L1", changeTag: read)])
        } throws: { ($0 as? RecordError)?.code == .serverRecordChanged && "\($0)".contains("'L1' was changed since change tag \(read)") }
        #expect(try db.fetch(recordName: "I1") == nil)
    }

    @Test func aRecordDeletedSinceItWasReadIsUnknown() throws {
        let db = try database()
        let read = try #require(try db.fetch(recordName: "L1")?.changeTag)
        _ = try db.delete(recordName: "L1")
        #expect { try db.modify([.requireUnchanged(recordName: "L1", changeTag: read)]) } throws: {
            ($0 as? RecordError)?.code == .unknownItem && "\($0)".contains("no record named 'L1'")
        }
    }
}
