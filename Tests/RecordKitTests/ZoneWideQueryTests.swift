import Foundation
import TestSupport
import Testing

@testable import RecordKit

/// A query over every zone of a database: each zone's page read apart and merged in the
/// query's order, paged with a cursor that keeps each zone's position.
@Suite struct ZoneWideQueryTests {
    /// Every page of `query` over the zones of `db`, read as a service reads them: each zone
    /// from its position, in its own transaction. The records as `zone/name`, and the pages'
    /// sizes.
    static func pages(of query: Query, in db: RecordDatabase, between: (Int) throws -> Void = { _ in }) throws -> (records: [String], sizes: [Int]) {
        var records: [String] = []
        var sizes: [Int] = []
        var cursor: String?
        repeat {
            let zoneWide = try ZoneWideQuery(query, after: cursor)
            var pages: [(zone: RecordZone, page: PositionedPage)] = []
            for zone in try db.zones() {
                let start = zoneWide.cursor(of: zone)
                pages.append((zone, try db.zone(zone.name).database.performRead { try $0.positionedPage(query, after: start) }))
            }
            let page = zoneWide.merge(pages)
            records += page.records.map { "\($0.zone.name)/\($0.record.fields["name"]?.stringValue ?? "-")" }
            sizes.append(page.records.count)
            cursor = page.cursor
            try between(sizes.count)
        } while cursor != nil && sizes.count < 20
        return (records, sizes)
    }

    /// Lists L0, L1, … with `titles` as their names (none for `nil`), as one batch.
    static func lists(_ titles: String?...) -> [RecordOperation] {
        titles.enumerated().map { index, title in
            .create(RecordKit.Record("Lists", recordName: "L\(index)", fields: title.map { ["name": .string($0)] } ?? [:]))
        }
    }

    @Test func everyRecordOfEveryZoneComesOnceInTheQuerysOrder() throws {
        let file = TemporaryDatabase()
        let db = try file.open(bootstrap: try Shopping.schemaWithoutRules)
        try db.modify(Self.lists("Milk", "Apples", "Tea"))
        try db.createZone("Home")
        try db.createZone("Work")
        try db.zone("Home").database.modify(Self.lists("Bread", "Milk"))
        try db.zone("Work").database.modify(Self.lists("Pens", "Binder", "Zinc", "Coffee"))
        let query = Query("Lists", sort: [SortDescriptor("name")], limit: 2)
        let (records, sizes) = try Self.pages(of: query, in: db)
        // The two Milks tie on name; the recordName breaks the tie (L0 before L1), as in one zone.
        #expect(
            records == [
                "_defaultZone/Apples", "Work/Binder", "Home/Bread", "Work/Coffee", "_defaultZone/Milk", "Home/Milk", "Work/Pens", "_defaultZone/Tea",
                "Work/Zinc",
            ])
        #expect(sizes == [2, 2, 2, 2, 1])
    }

    @Test func aDescendingQueryPutsRecordsWithoutTheKeyLast() throws {
        let file = TemporaryDatabase()
        let db = try file.open(bootstrap: try Shopping.schemaWithoutRules)
        try db.modify(Self.lists("b", nil))
        try db.createZone("Work")
        try db.zone("Work").database.modify(Self.lists(nil, "a", "c"))
        let (records, _) = try Self.pages(of: Query("Lists", sort: [SortDescriptor("name", ascending: false)], limit: 1), in: db)
        // Two records without a name: recordName L1 (the default zone's) and L0 (Work's), the
        // tie-break descending too.
        #expect(records == ["Work/c", "_defaultZone/b", "Work/a", "_defaultZone/-", "Work/-"])
    }

    @Test func aZoneCreatedBetweenPagesIsReadFromItsStartAndADeletedOneEndsThePages() throws {
        let file = TemporaryDatabase()
        let db = try file.open(bootstrap: try Shopping.schemaWithoutRules)
        try db.modify(Self.lists("a", "c", "e"))
        try db.createZone("Old")
        try db.zone("Old").database.modify(Self.lists("b", "d", "f"))
        let query = Query("Lists", sort: [SortDescriptor("name")], limit: 2)
        let (records, _) = try Self.pages(of: query, in: db) { page in
            guard page == 1 else { return }
            try db.deleteZone("Old")
            try db.createZone("New")
            try db.zone("New").database.modify(Self.lists("0", "z"))
        }
        #expect(records == ["_defaultZone/a", "Old/b", "New/0", "_defaultZone/c", "_defaultZone/e", "New/z"])
    }

    /// A zone pages as a query of one zone does: a record saved after its position comes in a
    /// later page, even once the zone had given all it held.
    @Test func aRecordSavedAfterAZonesPositionComesLater() throws {
        let file = TemporaryDatabase()
        let db = try file.open(bootstrap: try Shopping.schemaWithoutRules)
        try db.modify(Self.lists("a", "c"))
        try db.createZone("Work")
        try db.zone("Work").database.modify(Self.lists("b"))
        let (records, sizes) = try Self.pages(of: Query("Lists", sort: [SortDescriptor("name")], limit: 2), in: db) { page in
            if page == 1 { try db.zone("Work").database.save(RecordKit.Record("Lists", recordName: "L9", fields: ["name": .string("d")])) }
        }
        #expect(records == ["_defaultZone/a", "Work/b", "_defaultZone/c", "Work/d"])
        #expect(sizes == [2, 2])
    }

    @Test func aCursorOfAnotherQueryIsRefused() throws {
        let db = try RecordDatabase.inMemory(bootstrap: try Schema.shopping)
        try db.modify(Self.lists("a", "b", "c"))
        let byName = Query("Lists", sort: [SortDescriptor("name")], limit: 1)
        let first = try ZoneWideQuery(byName).merge([(.defaultZone, try db.performRead { try $0.positionedPage(byName) })])
        let cursor = try #require(first.cursor)
        let other = Query("Lists", sort: [SortDescriptor("name", ascending: false)], limit: 1)
        for text in [cursor, "bm90LWEtY3Vyc29y", try #require(db.performRead { try $0.page(byName) }.cursor)] {
            #expect { try ZoneWideQuery(other, after: text) } throws: { ($0 as? RecordError)?.reason == .invalidCursor }
        }
        #expect { try ZoneWideQuery(Query("Lists")) } throws: { ($0 as? RecordError)?.code == .invalidArguments }
    }
}
