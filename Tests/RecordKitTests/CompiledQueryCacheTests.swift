import Foundation
import TestSupport
import Testing

@testable import RecordKit

/// Queries compiled once per schema version and reused: a reused compilation must never bind
/// another query's values.
@Suite struct CompiledQueryCacheTests {
    private func names(_ db: RecordDatabase, _ predicate: RecordKit.Predicate) throws -> [String] {
        try db.records(matching: Query("Lists", predicate: predicate, sort: [SortDescriptor("name")])).recordNames
    }

    @Test func aRepeatedQueryIsCompiledOnceAndEachLiteralStillFindsItsOwnRecords() throws {
        let db = try RecordDatabase.inMemory(bootstrap: .shopping)
        try db.modify([.create(Shopping.list("L1", "Groceries")), .create(Shopping.list("L2", "Hardware"))])
        let snapshot = try db.read { $0.snapshot }
        let groceries = Query("Lists", predicate: PredicateField("name") == .string("Groceries"))
        #expect(try snapshot.compiled(groceries, access: .owner).sql == snapshot.compiled(groceries, access: .owner).sql)
        for _ in 0..<3 {
            #expect(try names(db, PredicateField("name") == .string("Groceries")) == ["L1"])
            #expect(try names(db, PredicateField("name") == .string("Hardware")) == ["L2"])
        }
    }

    /// Swift's `==` on strings is canonical equivalence: "K" written with KELVIN SIGN equals
    /// "K", and "é" precomposed equals "e" with a combining accent. Storage compares bytes.
    @Test(arguments: [("K", "\u{212A}"), ("caf\u{E9}", "cafe\u{301}")])
    func equalButByteDifferentLiteralsEachFindTheirOwnRecord(first: String, second: String) throws {
        #expect(first == second && Array(first.utf8) != Array(second.utf8))
        let db = try RecordDatabase.inMemory(bootstrap: .shopping)
        try db.modify([.create(Shopping.list("first", first)), .create(Shopping.list("second", second))])
        for _ in 0..<2 {
            #expect(try names(db, PredicateField("name") == .string(first)) == ["first"])
            #expect(try names(db, PredicateField("name") == .string(second)) == ["second"])
        }
    }

    @Test func aSchemaChangeCompilesAgainstTheNewSchema() throws {
        let db = try RecordDatabase.inMemory(bootstrap: .shopping)
        try db.save(Shopping.list("L1", "Groceries"))
        let query = Query("Lists", predicate: PredicateField("name") == .string("Groceries"))
        #expect(try db.records(matching: query).first?.fields["shop"] == nil)
        try db.addField(FieldDefinition("shop", .string), to: "Lists")
        try db.update(recordType: "Lists", recordName: "L1", fields: ["shop": .string("Corner")])
        #expect(try db.records(matching: query).first?.fields["shop"] == .string("Corner"))
    }
}
