import Foundation
import TestSupport
import Testing

@testable import RecordKit

@Suite struct PaginationTests {
    /// 10,000 records whose sort key has only 7 distinct values (and some absent): every record
    /// is returned exactly once, in order, in both directions.
    @Test(arguments: [true, false])
    func keysetPaginationVisitsEveryRecordOnceDespiteTies(ascending: Bool) throws {
        let db = try RecordDatabase.inMemory(bootstrap: .shopping)
        try db.addField(FieldDefinition("number", .int64, flags: [.queryable, .sortable]), to: "Items")
        try db.save(Shopping.list("L1", "Groceries"))
        try db.modify(
            (0..<10_000).map { index in
                var item = Shopping.item("I\(index)", "Item \(index)", in: "L1")
                if index % 11 != 0 { item["number"] = .int64(Int64(index % 7)) }
                return .create(item)
            })
        let query = Query("Items", predicate: PredicateField("list") == "L1", sort: [SortDescriptor("number", ascending: ascending)], limit: 333)
        var seen: [Record] = []
        var cursor: String?
        var pages = 0
        repeat {
            let page = try db.page(query, after: cursor)
            seen += page.records
            cursor = page.cursor
            pages += 1
        } while cursor != nil
        #expect(pages == 31)
        #expect(seen.count == 10_000)
        #expect(Set(seen.recordNames).count == 10_000)
        #expect(seen == (try db.records(matching: Query(query.recordType, predicate: query.predicate, sort: query.sort))))
    }

    @Test func pagesStayCorrectWhenRecordsAreInsertedBetweenThem() throws {
        let db = try RecordDatabase.inMemory(bootstrap: .shopping)
        try db.save(Shopping.list("L1", "Groceries"))
        try db.modify((0..<100).map { .create(Shopping.item(String(format: "I%03d", $0), String(format: "n%03d", $0 * 2), in: "L1")) })
        let query = Query("Items", predicate: PredicateField("list") == "L1", sort: [SortDescriptor("name")], limit: 10)
        let first = try db.page(query)
        #expect(first.records.names.last == "n018")
        // Before the cursor: must not appear. After it: must appear once.
        try db.save(Shopping.item("early", "n001", in: "L1"))
        try db.save(Shopping.item("late", "n019", in: "L1"))
        var seen = first.records
        var cursor = first.cursor
        while let position = cursor {
            let page = try db.page(query, after: position)
            seen += page.records
            cursor = page.cursor
        }
        #expect(seen.count == 101)
        #expect(!seen.recordNames.contains("early"))
        #expect(seen.recordNames.filter { $0 == "late" }.count == 1)
    }

    @Test func aCursorOfAnotherQueryOrAForgedOneIsRejected() throws {
        let db = try RecordDatabase.inMemory(bootstrap: .shopping)
        try db.save(Shopping.list("L1", "a"))
        try db.save(Shopping.list("L2", "b"))
        let cursor = try #require(try db.page(Query("Lists", sort: [SortDescriptor("name")], limit: 1)).cursor)
        for bad in [cursor + "x", "'; DROP TABLE Lists; --", "", "e30"] {
            #expect { try db.page(Query("Lists", sort: [SortDescriptor("name")], limit: 1), after: bad) } throws: {
                ($0 as? RecordError)?.code == .invalidArguments
            }
        }
        #expect { try db.page(Query("Lists", limit: 1), after: cursor) } throws: { ($0 as? RecordError)?.code == .invalidArguments }
        #expect(try db.count("Lists") == 2)
    }

    @Test func theLastPageHasNoCursor() throws {
        let db = try RecordDatabase.inMemory(bootstrap: .shopping)
        try db.save(Shopping.list("L1", "a"))
        #expect(try db.page(Query("Lists", limit: 1)).cursor == nil)
        #expect(try db.page(Query("Lists", limit: 5)).records.count == 1)
    }
}
