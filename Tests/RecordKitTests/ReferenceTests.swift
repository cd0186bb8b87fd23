import Foundation
import TestSupport
import Testing

@testable import RecordKit

@Suite struct ReferenceTests {
    /// A → B → C chain of DELETE_SELF references (C points at B, B at A), plus a cycle
    /// between C and D: deleting A removes everything, and the cascade terminates.
    @Test func deleteCascadesThroughThreeLevelsAndTerminatesOnCycles() throws {
        let db = try RecordDatabase.inMemory(
            bootstrap: Schema(recordTypes: [
                RecordType(
                    "Node",
                    fields: [
                        FieldDefinition("parent", .reference, flags: .queryable),
                        FieldDefinition("peer", .reference, flags: .queryable),
                    ])
            ]))
        try db.modify([
            .create(Record("Node", recordName: "A")),
            .create(Record("Node", recordName: "B", fields: ["parent": .reference(Reference("A", action: .deleteSelf))])),
            .create(Record("Node", recordName: "C", fields: ["parent": .reference(Reference("B", action: .deleteSelf))])),
            .create(Record("Node", recordName: "D", fields: ["parent": .reference(Reference("C", action: .deleteSelf))])),
            .update(recordType: "Node", recordName: "C", fields: ["peer": .reference(Reference("D", action: .deleteSelf))]),
            .create(Record("Node", recordName: "E", fields: ["peer": .reference(Reference("C"))])),
        ])
        let removed = try db.delete(recordName: "A")
        #expect(removed.first == "A")
        #expect(Set(removed) == ["A", "B", "C", "D"])
        #expect(removed.count == 4, "each record is reported once")
        #expect(try db.fetch(recordNames: ["A", "B", "C", "D", "E"]).recordNames == ["E"])
    }

    @Test func aDeleteSelfReferenceToAMissingRecordIsRejected() throws {
        let db = try RecordDatabase.inMemory(bootstrap: .shopping)
        let before = try db.contentDump()
        #expect {
            try db.save(Shopping.item("I1", "Milk", in: "missing"))
        } throws: { error in
            guard let error = error as? RecordError else { return false }
            return error.code == .referenceViolation && error.recordName == "missing" && error.field == "list"
        }
        #expect(try db.contentDump() == before)
    }

    @Test func aNoneReferenceMayPointAnywhereAndDangles() throws {
        let db = try RecordDatabase.inMemory(bootstrap: .shopping)
        try db.save(Shopping.item("I1", "Milk", in: "nowhere", action: .none))
        try db.save(Shopping.list("L1", "Groceries"))
        try db.save(Shopping.item("I2", "Eggs", in: "L1", action: .none))
        #expect(try db.delete(recordName: "L1") == ["L1"])
        #expect(try db.fetch(recordName: "I2")?["list"] == .reference(Reference("L1")))
    }

    @Test func deleteSelfInsideAReferenceListCascades() throws {
        let db = try RecordDatabase.inMemory(bootstrap: .shopping)
        try db.addRecordType(RecordType("Tags", fields: [FieldDefinition("owners", .list(.reference))]))
        try db.save(Shopping.list("L1", "Groceries"))
        try db.save(Shopping.list("L2", "Other"))
        try db.save(
            Record(
                "Tags", recordName: "T1",
                fields: [
                    "owners": .list([.reference(Reference("L2")), .reference(Reference("L1", action: .deleteSelf))])
                ]))
        try db.save(Record("Tags", recordName: "T2", fields: ["owners": .list([.reference(Reference("L1"))])]))
        #expect(Set(try db.delete(recordName: "L1")) == ["L1", "T1"])
        #expect(try db.fetch(recordName: "T2") != nil)
    }

    @Test func aBatchMayCreateTheTargetBeforeTheReference() throws {
        let db = try RecordDatabase.inMemory(bootstrap: .shopping)
        let result = try db.modify([.create(Shopping.list("L1", "Groceries")), .create(Shopping.item("I1", "Milk", in: "L1"))])
        #expect(result.results.count == 2)
        #expect(try db.records(matching: Shopping.itemsOf("L1")).recordNames == ["I1"])
    }

    /// In one batch the order of saves does not matter: a record may come before the record it
    /// references with DELETE_SELF (as an exported file, in recordName order, reads back). A
    /// target the batch never saves fails it, naming the record holding the reference.
    @Test func aBatchMaySaveAReferenceBeforeItsTargetButNotWithoutOne() throws {
        let db = try RecordDatabase.inMemory(bootstrap: .shopping)
        try db.modify([.create(Shopping.item("I1", "Milk", in: "L1")), .create(Shopping.list("L1", "Groceries"))])
        #expect(try db.records(matching: Shopping.itemsOf("L1")).recordNames == ["I1"])
        try db.delete(recordName: "L1")
        #expect(try db.fetch(recordName: "I1") == nil)
        let before = try db.contentDump()
        #expect {
            try db.modify([.create(Shopping.item("I2", "Tea", in: "L2")), .create(Shopping.list("L3", "Other"))])
        } throws: { error in
            guard let error = error as? RecordError else { return false }
            return error.code == .referenceViolation && error.recordName == "I2" && error.message.contains("'L2'")
        }
        #expect(try db.contentDump() == before)
        // A referrer deleted later in the batch needs no target.
        try db.modify([.create(Shopping.item("I3", "Jam", in: "L4")), .delete(recordName: "I3")])
    }

    @Test func aRecordDeletedEarlierInTheBatchCannotBeReferenced() throws {
        let db = try RecordDatabase.inMemory(bootstrap: .shopping)
        try db.save(Shopping.list("L1", "Groceries"))
        #expect(throws: RecordError.self) {
            try db.modify([.delete(recordName: "L1"), .create(Shopping.item("I1", "Milk", in: "L1"))])
        }
        #expect(try db.fetch(recordName: "L1") != nil)
    }
}
