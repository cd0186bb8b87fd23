import Foundation
import TestSupport
import Testing

@testable import RecordKit

/// The engine's limits not covered by ``LimitTests``, at the boundary: the largest accepted
/// works, one more fails with a clear error, and nothing is stored.
@Suite struct EngineLimitBoundaryTests {
    static let files = Schema(recordTypes: [RecordType("Files", fields: [FieldDefinition("file", .asset)])])

    @Test func anAssetHoldsAtMostSixtyFourMebibytes() throws {
        let db = try RecordDatabase.inMemory(bootstrap: Self.files)
        var content = Data(count: Limits.maximumAssetBytes)
        content[content.count - 1] = 1
        let largest = Asset(content: content)
        try db.save(Record("Files", recordName: "largest", fields: ["file": .asset(largest)]))
        #expect(try db.assetContent(sha256: largest.sha256) == content)
        content.append(2)
        let before = try db.contentDump().count
        #expect {
            try db.save(Record("Files", recordName: "too-big", fields: ["file": .asset(Asset(content: content))]))
        } throws: { ($0 as? RecordError)?.code == .limitExceeded && "\($0)".contains("at most 67108864 bytes") }
        #expect(try db.fetch(recordName: "too-big") == nil)
        #expect(try db.contentDump().count == before)
    }

    @Test func aRecordNameIsAtMostTwoHundredFiftyFiveBytes() throws {
        let db = try RecordDatabase.inMemory(bootstrap: .shopping)
        let longest = String(repeating: "é", count: 127) + "x"
        #expect(longest.utf8.count == 255)
        try db.save(Shopping.list(longest, "Groceries"))
        #expect(try db.fetch(recordName: longest)?.recordName == longest)
        #expect {
            try db.save(Shopping.list(longest + "y", "Hardware"))
        } throws: { ($0 as? RecordError)?.code == .invalidArguments && "\($0)".contains("longer than 255 bytes") }
        #expect(try db.records(matching: Query("Lists")).count == 1)
    }

    @Test func aNameIsAtMostTwoHundredFiftyFiveCharacters() throws {
        let db = try RecordDatabase.inMemory(bootstrap: .shopping)
        let longest = "T" + String(repeating: "x", count: 254)
        try db.addRecordType(RecordType(longest))
        try db.addField(FieldDefinition("f" + String(repeating: "x", count: 254), .string), to: "Items")
        let schema = try db.schema
        #expect { try db.addRecordType(RecordType(longest + "x")) } throws: { ($0 as? RecordError)?.code == .invalidArguments }
        #expect { try db.addField(FieldDefinition("g" + String(repeating: "x", count: 255), .string), to: "Items") } throws: {
            ($0 as? RecordError)?.code == .invalidArguments && "\($0)".contains("longer than 255 characters")
        }
        #expect(try db.schema == schema)
    }

    @Test func aTransactionIDIsAtMostTwoHundredFiftyFiveBytes() throws {
        let db = try RecordDatabase.inMemory(bootstrap: .shopping)
        let longest = String(repeating: "t", count: 255)
        try db.modify([.create(Shopping.list("L1", "Groceries"))], transactionID: longest)
        #expect(try db.transaction(id: longest).id == longest)
        #expect {
            try db.modify([.create(Shopping.list("L2", "Hardware"))], transactionID: longest + "t")
        } throws: { ($0 as? RecordError)?.code == .invalidArguments && "\($0)".contains("1 to 255 bytes") }
        #expect(try db.fetch(recordName: "L2") == nil)
    }

    /// The predicate parser takes 64 levels of parentheses, but alternating AND and OR nest the
    /// compiled SQL, and SQLite's parser stops at about 100 levels: such a query fails with
    /// `limitExceeded`, as any query SQLite refuses as too complex, never as an internal error.
    @Test func aQueryTooComplexForSQLiteIsLimitExceeded() throws {
        let db = try RecordDatabase.inMemory(bootstrap: .shopping)
        try db.save(Shopping.list("L1", "Groceries"))
        var predicate = "name == 'Groceries'"
        for level in 1..<20 {
            predicate = level.isMultiple(of: 2) ? "name != 'x\(level)' AND (\(predicate))" : "name == 'x\(level)' OR (\(predicate))"
        }
        #expect(try db.records(matching: Query("Lists", predicate: try PredicateParser.parse(predicate))).count == 1)
        for level in 20..<64 {
            predicate = level.isMultiple(of: 2) ? "name != 'x\(level)' AND (\(predicate))" : "name == 'x\(level)' OR (\(predicate))"
        }
        let deep = try PredicateParser.parse(predicate)
        #expect {
            try db.records(matching: Query("Lists", predicate: deep))
        } throws: { ($0 as? RecordError)?.code == .limitExceeded && "\($0)".contains("too complex for SQLite to compile") }
        // A projection with more members than one json_object takes.
        let wide = Projection((0..<64).map { Projection.Member("k\($0)", .recordName) })
        #expect {
            try db.read { try $0.json(Query("Lists"), projection: wide) }
        } throws: { ($0 as? RecordError)?.code == .limitExceeded }
    }
}
