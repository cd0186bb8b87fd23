import Foundation
import TestSupport
import Testing

@testable import RecordKit

@Suite struct PaginationTests {
    /// The records of `query`, page after page from no cursor, and how many pages it took; at
    /// most `maximumPages` pages, so a cursor that never reaches the end fails a test instead of
    /// hanging it.
    static func pagedThrough(_ query: Query, in db: RecordDatabase, maximumPages: Int = 1_000) throws -> (records: [Record], pages: Int) {
        var seen: [Record] = []
        var cursor: String?
        var pages = 0
        repeat {
            let page = try db.page(query, after: cursor)
            seen += page.records
            cursor = page.cursor
            pages += 1
        } while cursor != nil && pages < maximumPages
        return (seen, pages)
    }

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
        let (seen, pages) = try Self.pagedThrough(query, in: db)
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

    /// Pages of one record: each cursor carries its record's keys (a string needing escapes,
    /// extreme integers and doubles, an absent value) and the next page starts right after it.
    @Test func aCursorCarriesEveryKindOfSortKeyExactly() throws {
        let db = try RecordDatabase.inMemory(bootstrap: .shopping)
        try db.addField(FieldDefinition("number", .int64, flags: [.queryable, .sortable]), to: "Items")
        try db.addField(FieldDefinition("price", .double, flags: [.queryable, .sortable]), to: "Items")
        try db.save(Shopping.list("L1", "Groceries"))
        let names = ["quote \" backslash \\", "tab \t newline \n", "é 🛒", "plain", "\u{1}control"]
        let numbers: [Int64?] = [.min, .max, nil, 0, -1]
        let prices: [Double?] = [0.1, -1e300, .leastNonzeroMagnitude, nil, 1e300]
        try db.modify(
            names.indices.map { index in
                var item = Shopping.item("I\(index)", names[index], in: "L1")
                item["number"] = numbers[index].map(Value.int64)
                item["price"] = prices[index].map(Value.double)
                return .create(item)
            })
        for key in ["name", "number", "price"] {
            for ascending in [true, false] {
                let query = Query("Items", sort: [SortDescriptor(key, ascending: ascending)], limit: 1)
                #expect(try Self.pagedThrough(query, in: db).records == (try db.records(matching: Query("Items", sort: query.sort))), "\(key) \(ascending)")
            }
        }
    }

    /// Doubles whose shortest text needs 17 digits, shared by several records: a cursor that
    /// rounded them lost the records after it, or (descending) returned the same page forever.
    @Test func aDoubleKeyNeedingSeventeenDigitsPagesEveryRecordOnce() throws {
        let db = try RecordDatabase.inMemory(bootstrap: .shopping)
        try db.addField(FieldDefinition("price", .double, flags: [.queryable, .sortable]), to: "Items")
        try db.save(Shopping.list("L1", "Groceries"))
        let prices = [0.1 + 0.2, 0.1 + 0.2, 0.1 + 0.2, 0.123456789012345678, 0.1 + 0.7, 0.1 + 0.7]
        try db.modify(
            prices.indices.map { index in
                var item = Shopping.item("I\(index)", "Item \(index)", in: "L1")
                item["price"] = .double(prices[index])
                return .create(item)
            })
        for ascending in [true, false] {
            let query = Query("Items", sort: [SortDescriptor("price", ascending: ascending)], limit: 1)
            #expect(try Self.pagedThrough(query, in: db).records == (try db.records(matching: Query("Items", sort: query.sort))), "ascending: \(ascending)")
        }
    }

    @Test func theLastPageHasNoCursor() throws {
        let db = try RecordDatabase.inMemory(bootstrap: .shopping)
        try db.save(Shopping.list("L1", "a"))
        #expect(try db.page(Query("Lists", limit: 1)).cursor == nil)
        #expect(try db.page(Query("Lists", limit: 5)).records.count == 1)
    }
}
