import Foundation
import TestSupport
import Testing

@testable import RecordKit

/// The product brief's story, end to end on a file database reopened between steps.
@Suite struct StoryTests {
    @Test func theShoppingListStoryHoldsAcrossReopens() throws {
        let file = TemporaryDatabase()

        // Lists and items are saved; items reference their list with DELETE_SELF.
        do {
            let db = try file.open()
            try db.modify([
                .create(Shopping.list("L1", "Groceries")),
                .create(Shopping.list("L2", "Hardware")),
                .create(Shopping.item("I1", "Milk", in: "L1")),
                .create(Shopping.item("I2", "Bread", in: "L1")),
                .create(Shopping.item("I3", "Apples", in: "L1")),
                .create(Shopping.item("I4", "Nails", in: "L2")),
            ])
            // A record in a new type holds a NONE reference to L1.
            try db.addRecordType(RecordType("Notes", fields: [FieldDefinition("about", .reference, flags: .queryable)]))
            try db.create(Record("Notes", recordName: "N1", fields: ["about": .reference(Reference("L1"))]))
        }

        // Items of one list, fetched with `list == …`, sorted by name.
        do {
            let db = try file.open()
            let predicate = try PredicateParser.parse("list == 'L1'")
            let items = try db.records(matching: Query("Items", predicate: predicate, sort: [SortDescriptor("name")]))
            #expect(items.names == ["Apples", "Bread", "Milk"])
        }

        // The schema evolves without a migration: old items read `number` as absent.
        do {
            let db = try file.open()
            try db.addField(FieldDefinition("number", .int64, flags: [.queryable, .sortable]), to: "Items")
            try db.update(recordType: "Items", recordName: "I2", fields: ["number": .int64(2)])
        }
        do {
            let db = try file.open()
            let items = try db.records(matching: Shopping.itemsOf("L1"))
            #expect(items.map { $0["number"] } == [nil, .int64(2), nil])
            #expect(try db.records(matching: Query("Items", predicate: try PredicateParser.parse("list == 'L1' AND number >= 2"))).recordNames == ["I2"])
        }

        // Deleting a list deletes its items; a NONE reference to it survives, dangling.
        do {
            let db = try file.open()
            let removed = try db.delete(recordName: "L1")
            #expect(removed.first == "L1")
            #expect(Set(removed) == ["L1", "I1", "I2", "I3"])
        }
        do {
            let db = try file.open()
            #expect(try db.fetch(recordName: "L1") == nil)
            #expect(try db.records(matching: Shopping.itemsOf("L1")).isEmpty)
            #expect(try db.records(matching: Shopping.itemsOf("L2")).names == ["Nails"])
            let note = try #require(try db.fetch(recordName: "N1"))
            #expect(note["about"] == .reference(Reference("L1")))
        }
    }

    @Test func aFailedDeleteLosesNothingAndSaysWhy() throws {
        let db = try RecordDatabase.inMemory(bootstrap: .shopping)
        try db.save(Shopping.list("L1", "Groceries"))
        let before = try db.contentDump()
        #expect {
            try db.delete(recordName: "nope")
        } throws: { error in
            (error as? RecordError)?.code == .unknownItem && "\(error)".contains("'nope'")
        }
        #expect(try db.contentDump() == before)
    }
}
