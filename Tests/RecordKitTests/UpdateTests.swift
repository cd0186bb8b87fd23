import Foundation
import TestSupport
import Testing

@testable import RecordKit

/// `update(recordType:recordName:fields:ifChangeTag:)`: changes only the fields given, returns the
/// stored record, and says why when it cannot apply.
@Suite struct UpdateTests {
    private func database() throws -> RecordDatabase {
        let db = try RecordDatabase.inMemory(bootstrap: .shopping)
        try db.save(Shopping.list("L1", "Groceries"))
        try db.save(Shopping.item("I1", "Milk", in: "L1"))
        return db
    }

    @Test func anUpdateChangesOnlyItsFieldsAndReturnsTheStoredRecord() throws {
        let db = try database()
        let before = try #require(try db.fetch(recordName: "I1"))
        let updated = try db.update(recordType: "Items", recordName: "I1", fields: ["name": .string("Oat milk")])
        #expect(updated.fields["name"] == .string("Oat milk"))
        #expect(updated.fields["list"] == .reference(Reference("L1", action: .deleteSelf)))
        #expect(updated.changeTag != before.changeTag)
        #expect(updated.createdAt == before.createdAt)
        #expect(try db.fetch(recordName: "I1") == updated)
    }

    @Test func theCurrentChangeTagLetsTheUpdateThroughAndAStaleOneIsRefused() throws {
        let db = try database()
        let current = try #require(try db.fetch(recordName: "I1")?.changeTag)
        let updated = try db.update(recordType: "Items", recordName: "I1", fields: ["name": .string("Tea")], ifChangeTag: current)
        #expect {
            try db.update(recordType: "Items", recordName: "I1", fields: ["name": .string("Coffee")], ifChangeTag: current)
        } throws: { ($0 as? RecordError)?.code == .serverRecordChanged }
        #expect(try db.fetch(recordName: "I1") == updated)
    }

    @Test func aMissingRecordIsUnknownEvenWhenItsFieldsAreAlsoWrong() throws {
        let db = try database()
        for fields: [String: Value?] in [["name": .string("x")], ["nope": .string("x")], ["name": .int64(3)]] {
            #expect { try db.update(recordType: "Items", recordName: "missing", fields: fields) } throws: {
                ($0 as? RecordError)?.code == .unknownItem
            }
        }
        #expect { try db.update(recordType: "Items", recordName: "L1", fields: ["name": .string("x")]) } throws: {
            ($0 as? RecordError)?.code == .unknownItem && "\($0)".contains("no Items record named 'L1'")
        }
    }

    @Test func aStaleChangeTagIsReportedBeforeAWrongField() throws {
        let db = try database()
        #expect {
            try db.update(recordType: "Items", recordName: "I1", fields: ["nope": .string("x")], ifChangeTag: "stale")
        } throws: { ($0 as? RecordError)?.code == .serverRecordChanged }
        #expect { try db.update(recordType: "Items", recordName: "I1", fields: ["nope": .string("x")]) } throws: {
            ($0 as? RecordError)?.code == .schemaViolation
        }
    }
}
