import Foundation
import Testing

@testable import RecordKit

/// Record zones: the default zone is the database; each custom zone has its own records,
/// batches, references and change feed, and deleting it deletes its records.
@Suite struct ZoneTests {
    @Test func aNewDatabaseHasOnlyTheDefaultZone() throws {
        let db = try RecordDatabase.inMemory(bootstrap: try Schema.shopping)
        #expect(try db.zones() == [.defaultZone])
        #expect(try db.zone(RecordZone.defaultName).database === db)
    }

    @Test func aCustomZoneKeepsItsRecordsApartWithTheSameNames() throws {
        let file = TemporaryDatabase()
        let db = try file.open()
        let work = try db.createZone("Work")
        #expect(work.id > 0)
        #expect(try db.zones().map(\.name) == [RecordZone.defaultName, "Work"])
        try db.save(Shopping.list("L1", "Groceries"))
        let zone = try db.zone("Work").database
        try zone.save(Shopping.list("L1", "Office"))
        try zone.save(Shopping.item("I1", "Pens", in: "L1"))
        #expect(try db.records(matching: Query("Lists")).names == ["Groceries"])
        #expect(try zone.records(matching: Query("Lists")).names == ["Office"])
        #expect(try db.records(matching: Query("Items")).isEmpty)
        // A reference points into its own zone: the default zone has no I1's list L2.
        #expect { try db.save(Shopping.item("I2", "Tea", in: "L2")) } throws: { ($0 as? RecordError)?.code == .referenceViolation }
        #expect(try zone.changePage(ChangeFeedRequest(after: nil, limit: 10)).entries.map(\.recordName) == ["L1", "I1"])
        #expect(try db.changePage(ChangeFeedRequest(after: nil, limit: 10)).entries.map(\.recordName) == ["L1"])
        // Reopened, the zone and its records are still there.
        let reopened = try file.open()
        #expect(try reopened.zone("Work").database.records(matching: Query("Items")).names == ["Pens"])
    }

    @Test func creatingAZoneTwiceReturnsTheSameZone() throws {
        let db = try RecordDatabase.inMemory(bootstrap: try Schema.shopping)
        #expect(try db.createZone("Work") == db.createZone("Work"))
        #expect(try db.createZone(RecordZone.defaultName) == .defaultZone)
    }

    @Test func deletingAZoneDeletesItsRecordsAndAZoneCreatedAgainIsAnother() throws {
        let file = TemporaryDatabase()
        let db = try file.open()
        let first = try db.createZone("Work")
        try db.zone("Work").database.save(Shopping.list("L1", "Office"))
        try db.deleteZone("Work")
        #expect { try db.zone("Work") } throws: { ($0 as? RecordError)?.reason == .unknownZone }
        let second = try db.createZone("Work")
        #expect(second.id != first.id)
        #expect(try db.zone("Work").database.records(matching: Query("Lists")).isEmpty)
        #expect { try db.deleteZone("Elsewhere") } throws: { ($0 as? RecordError)?.reason == .unknownZone }
        #expect { try db.deleteZone(RecordZone.defaultName) } throws: { ($0 as? RecordError)?.code == .invalidArguments }
    }

    @Test(arguments: ["", "_private", "-x", ".hidden", "a/b", "a b", "../up", String(repeating: "z", count: 256)])
    func aZoneNameOutsideTheAllowedCharactersIsRefused(name: String) throws {
        let db = try RecordDatabase.inMemory(bootstrap: try Schema.shopping)
        #expect { try db.createZone(name) } throws: { ($0 as? RecordError)?.code == .invalidArguments }
        #expect(try db.zones() == [.defaultZone])
    }

    @Test func aZoneFollowsTheSchemaOfItsDatabase() throws {
        let db = try RecordDatabase.inMemory(bootstrap: try Schema.shopping)
        try db.createZone("Work")
        try db.addField(FieldDefinition("number", .int64), to: "Items")
        let zone = try db.zone("Work").database
        try zone.save(Shopping.list("L1", "Office"))
        var item = Shopping.item("I1", "Pens", in: "L1")
        item.fields["number"] = .int64(3)
        #expect(try zone.save(item).fields["number"] == .int64(3))
    }
}
