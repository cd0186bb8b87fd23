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

    static let everyKindText = """
        DEFINE SCHEMA
            RECORD TYPE Things (
                name            STRING QUERYABLE SORTABLE SEARCHABLE,
                number          INT64 QUERYABLE SORTABLE,
                price           DOUBLE QUERYABLE SORTABLE,
                due             TIMESTAMP QUERYABLE SORTABLE,
                place           LOCATION QUERYABLE,
                tags            LIST<STRING> QUERYABLE,
                blobs           LIST<BYTES> QUERYABLE,
                owner           REFERENCE QUERYABLE,
                GRANT READ, WRITE TO "_creator",
                GRANT CREATE TO "_icloud"
            );
        """

    typealias Pair = (RecordKit.Predicate, RecordKit.Predicate)

    /// Pairs of predicates of one shape and different values, every kind of leaf among them.
    static var sameShapes: [Pair] {
        var pairs: [Pair] = []
        pairs.append((PredicateField("name") == .string("a"), PredicateField("name") == .string("b")))
        let nameAndNumber: Pair = (
            PredicateField("name") == .string("a") && PredicateField("number") > .integer(2),
            PredicateField("name") == .string("x") && PredicateField("number") > .integer(7)
        )
        pairs.append(nameAndNumber)
        let first: RecordKit.Predicate = .or([
            .compare(key: "name", .notEqual, .string("A"), caseInsensitive: true), .not(.between(key: "price", lower: .double(1), upper: .integer(3))),
        ])
        let second: RecordKit.Predicate = .or([
            .compare(key: "name", .notEqual, .string("Ü"), caseInsensitive: true), .not(.between(key: "price", lower: .integer(9), upper: .double(9.5))),
        ])
        pairs.append((first, second))
        pairs.append((.in(key: "number", [.integer(1), .integer(2)]), .in(key: "number", [.integer(5), .integer(6)])))
        pairs.append((.beginsWith(key: "name", "a*[", caseInsensitive: true), .beginsWith(key: "name", "Zo?", caseInsensitive: true)))
        pairs.append((.beginsWith(key: "tags", "red"), .beginsWith(key: "tags", "blue")))
        pairs.append((.contains(key: "tags", .string("red")), .contains(key: "tags", .string("blue"))))
        pairs.append((.contains(key: "blobs", .value(.bytes(Data([1])))), .contains(key: "blobs", .string(Data([2, 3]).base64EncodedString()))))
        pairs.append((.contains(key: "name", .string("ab")), .contains(key: "name", .string("cd"))))
        pairs.append(
            (
                .distance(key: "place", from: Location(latitude: 1, longitude: 2), .less, kilometres: 3),
                .distance(key: "place", from: Location(latitude: 4, longitude: 5), .less, kilometres: 6)
            ))
        pairs.append((.textSearch("milk bread"), .textSearch("eggs")))
        pairs.append((PredicateField("due") >= .string("2026-01-01T00:00:00Z"), PredicateField("due") >= .string("2027-05-06T07:08:09Z")))
        pairs.append((PredicateField("owner") == .value(.reference(Reference("r1"))), PredicateField("owner") == .string("r2")))
        let nullAndName: Pair = (
            .isNull(key: "number") && PredicateField("name") == .string("a"), .isNull(key: "number") && PredicateField("name") == .string("b")
        )
        pairs.append(nullAndName)
        return pairs
    }

    /// Pairs of predicates of one shape, the second with a value its field cannot hold.
    static var invalidSecondValues: [Pair] {
        var pairs: [Pair] = []
        pairs.append((PredicateField("number") == .integer(1), PredicateField("number") == .string("one")))
        pairs.append((.beginsWith(key: "name", "a"), .beginsWith(key: "name", "a\0b")))
        pairs.append((.textSearch("milk"), .textSearch("--")))
        pairs.append((PredicateField("due") > .string("2026-01-01T00:00:00Z"), PredicateField("due") > .string("soon")))
        pairs.append(
            (
                .distance(key: "place", from: Location(latitude: 1, longitude: 2), .less, kilometres: 3),
                .distance(key: "place", from: Location(latitude: 91, longitude: 2), .less, kilometres: 3)
            ))
        pairs.append((.contains(key: "blobs", .value(.bytes(Data([1])))), .contains(key: "blobs", .string("not base64!"))))
        return pairs
    }

    @Test(arguments: sameShapes.indices)
    func aQueryOfACompiledShapeIsBoundWithItsOwnValues(pair: Int) throws {
        let (first, second) = Self.sameShapes[pair]
        let db = try RecordDatabase.inMemory(bootstrap: try CKDBParser.parse(Self.everyKindText))
        let snapshot = try db.read { $0.snapshot }
        let layout = try snapshot.layout("Things")
        let ann = AccessPolicy.publicDatabase(.user(recordName: "_ann"))
        for access in [AccessPolicy.owner, ann] {
            let firstQuery = Query("Things", predicate: first, sort: [SortDescriptor("name")], limit: 5)
            let secondQuery = Query("Things", predicate: second, sort: [SortDescriptor("name")], limit: 5)
            _ = try snapshot.compiled(firstQuery, access: access)
            let reused = try snapshot.compiled(secondQuery, access: access)
            let fresh = try QueryCompiler.compile(secondQuery, layout: layout, access: access)
            #expect(reused.sql == fresh.sql)
            #expect(reused.values == fresh.values, "\(second) for \(access)")
            #expect(reused.values != (try snapshot.compiled(firstQuery, access: access).values))
        }
        #expect(snapshot.compiledQueryCount == 2, "one compilation per shape and access")
    }

    /// What a value may not be is checked each time a compiled shape is bound again.
    @Test(arguments: invalidSecondValues.indices)
    func aValueTheFieldCannotHoldIsRefusedWhenTheShapeIsCompiled(pair: Int) throws {
        let (valid, invalid) = Self.invalidSecondValues[pair]
        let db = try RecordDatabase.inMemory(bootstrap: try CKDBParser.parse(Self.everyKindText))
        let snapshot = try db.read { $0.snapshot }
        _ = try snapshot.compiled(Query("Things", predicate: valid), access: .owner)
        #expect(throws: RecordError.self) { try snapshot.compiled(Query("Things", predicate: invalid), access: .owner) }
    }
}
