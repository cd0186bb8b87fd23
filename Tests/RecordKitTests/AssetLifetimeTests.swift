import Foundation
import TestSupport
import Testing

@testable import RecordKit

/// Asset content is kept while a record holds it, and removed in the transaction that drops
/// its last holder: a delete (cascades included), an update or a replacement.
@Suite struct AssetLifetimeTests {
    static let schema = Schema(recordTypes: [
        RecordType("Albums", fields: [FieldDefinition("name", .string)]),
        RecordType(
            "Photos",
            fields: [
                FieldDefinition("album", .reference), FieldDefinition("image", .asset), FieldDefinition("copies", .list(.asset)),
            ]),
    ])

    static let picture = Asset(content: Data("picture bytes".utf8))
    static let other = Asset(content: Data("other bytes".utf8))

    static func photo(_ name: String, _ fields: [String: Value], album: String? = nil) -> Record {
        var fields = fields
        if let album { fields["album"] = .reference(Reference(album, action: .deleteSelf)) }
        return Record("Photos", recordName: name, fields: fields)
    }

    /// The SHA-256 of every content `_assets` holds, sorted.
    static func contents(_ db: RecordDatabase) throws -> [String] {
        try db.rawRows("SELECT sha256 FROM _assets ORDER BY sha256").map { $0[0] }
    }

    @Test func deletingTheLastRecordHoldingAnAssetRemovesItsContent() throws {
        let db = try RecordDatabase.inMemory(bootstrap: Self.schema)
        try db.save(Self.photo("P1", ["image": .asset(Self.picture)]))
        #expect(try Self.contents(db) == [Self.picture.sha256])
        try db.delete(recordName: "P1")
        #expect(try Self.contents(db).isEmpty)
        #expect(try db.assetContent(sha256: Self.picture.sha256) == nil)
    }

    @Test func contentStaysWhileAnotherRecordHoldsIt() throws {
        let db = try RecordDatabase.inMemory(bootstrap: Self.schema)
        try db.save(Self.photo("P1", ["image": .asset(Self.picture)]))
        try db.save(Self.photo("P2", ["copies": .list([.asset(Self.picture)])]))
        try db.delete(recordName: "P1")
        #expect(try db.assetContent(sha256: Self.picture.sha256) == Data("picture bytes".utf8))
        try db.delete(recordName: "P2")
        #expect(try Self.contents(db).isEmpty)
    }

    @Test func aRecordHoldingTheSameContentSeveralTimesReleasesItWhenDeleted() throws {
        let db = try RecordDatabase.inMemory(bootstrap: Self.schema)
        let copies = Value.list([.asset(Self.picture), .asset(Self.picture), .asset(Self.other)])
        try db.save(Self.photo("P1", ["image": .asset(Self.picture), "copies": copies]))
        #expect(try Self.contents(db).count == 2)
        try db.delete(recordName: "P1")
        #expect(try Self.contents(db).isEmpty)
    }

    @Test func updatingOrReplacingAnAssetRemovesTheContentNoLongerHeld() throws {
        let db = try RecordDatabase.inMemory(bootstrap: Self.schema)
        try db.save(Self.photo("P1", ["image": .asset(Self.picture)]))
        try db.update(recordType: "Photos", recordName: "P1", fields: ["image": .asset(Self.other)])
        #expect(try Self.contents(db) == [Self.other.sha256])
        // A replacement without the field drops it too.
        try db.save(Self.photo("P1", ["copies": .list([.asset(Self.picture)])]))
        #expect(try Self.contents(db) == [Self.picture.sha256])
        // Removing the value (nil) drops it.
        try db.update(recordType: "Photos", recordName: "P1", fields: ["copies": nil])
        #expect(try Self.contents(db).isEmpty)
    }

    @Test func anUpdateKeepingTheAssetKeepsItsContent() throws {
        let db = try RecordDatabase.inMemory(bootstrap: Self.schema)
        try db.save(Self.photo("P1", ["image": .asset(Self.picture)]))
        // Saved back as read: the asset by checksum and size, without content.
        let stored = Asset(size: Self.picture.size, sha256: Self.picture.sha256)
        try db.update(recordType: "Photos", recordName: "P1", fields: ["image": .asset(stored)])
        try db.save(Self.photo("P1", ["image": .asset(stored)]))
        #expect(try Self.contents(db) == [Self.picture.sha256])
    }

    @Test func aCascadingDeleteRemovesTheContentItsRecordsHeld() throws {
        let db = try RecordDatabase.inMemory(bootstrap: Self.schema)
        try db.save(Record("Albums", recordName: "A1", fields: ["name": .string("Holiday")]))
        try db.save(Self.photo("P1", ["image": .asset(Self.picture)], album: "A1"))
        try db.save(Self.photo("P2", ["copies": .list([.asset(Self.other), .asset(Self.picture)])], album: "A1"))
        try db.save(Self.photo("P3", ["image": .asset(Self.other)]))
        #expect(try db.delete(recordName: "A1").count == 3)
        #expect(try Self.contents(db) == [Self.other.sha256])
    }

    @Test func aWriteThatRollsBackRemovesNothing() throws {
        struct Abandon: Error {}
        let db = try RecordDatabase.inMemory(bootstrap: Self.schema)
        try db.save(Self.photo("P1", ["image": .asset(Self.picture)]))
        #expect(throws: Abandon.self) {
            try db.write { transaction in
                _ = try transaction.delete(recordName: "P1")
                throw Abandon()
            }
        }
        // A batch failing after the delete is rolled back whole, too.
        #expect(throws: RecordError.self) {
            try db.modify([.delete(recordName: "P1"), .delete(recordName: "missing")])
        }
        #expect(try Self.contents(db) == [Self.picture.sha256])
        #expect(try db.fetch(recordName: "P1") != nil)
    }

    @Test func aBatchMayDeleteAHolderAndSaveAnotherNamingTheSameContent() throws {
        let db = try RecordDatabase.inMemory(bootstrap: Self.schema)
        try db.save(Self.photo("P1", ["image": .asset(Self.picture)]))
        let stored = Asset(size: Self.picture.size, sha256: Self.picture.sha256)
        try db.modify([.delete(recordName: "P1"), .create(Self.photo("P2", ["image": .asset(stored)]))])
        #expect(try db.assetContent(sha256: Self.picture.sha256) == Data("picture bytes".utf8))
    }
}
