import Foundation
import TestSupport
import Testing

@testable import RecordKit

/// JSON built inside SQLite for a projection: encodings, nesting, one statement.
@Suite struct ProjectionTests {
    /// The shopping schema without its rules, so that items may share a name (ties).
    static func shop(trace: (@Sendable (String) -> Void)? = nil) throws -> RecordDatabase {
        let db = try RecordDatabase.inMemory(bootstrap: Shopping.schemaWithoutRules, trace: trace)
        try db.addField(FieldDefinition("number", .int64, flags: [.queryable, .sortable]), to: "Items")
        try db.modify([
            .create(Shopping.list("L1", "Groceries")),
            .create(Shopping.list("L2", "Hardware")),
            .create(Shopping.item("I1", "Milk", in: "L1")),
            .create(Shopping.item("I2", "Bread", in: "L1")),
            .create(Shopping.item("I3", "Nails", in: "L2")),
            .create(Shopping.item("I4", "Dangling", in: "gone", action: .none)),
        ])
        try db.update(recordType: "Items", recordName: "I2", fields: ["number": .int64(2)])
        return db
    }

    @Test func membersComeInOrderUnderTheirKeysWithReferencesResolved() throws {
        let db = try Self.shop()
        let projection = Projection([
            .init("id", .recordName),
            .init("name", .field("name")),
            .init("qty", .field("number")),
            .init("__typename", .constant("Items")),
            .init("list", .reference(field: "list", ["Lists": Projection([.init("name", .field("name"))])])),
        ])
        let json = try db.read { try $0.json(Query("Items", sort: [SortDescriptor("name")]), projection: projection) }
        #expect(
            json == """
                [{"id":"I2","name":"Bread","qty":2,"__typename":"Items","list":{"name":"Groceries"}},\
                {"id":"I4","name":"Dangling","qty":null,"__typename":"Items","list":null},\
                {"id":"I1","name":"Milk","qty":null,"__typename":"Items","list":{"name":"Groceries"}},\
                {"id":"I3","name":"Nails","qty":null,"__typename":"Items","list":{"name":"Hardware"}}]
                """)
    }

    @Test func referrersAreFilteredSortedAndLimitedPerParent() throws {
        let db = try Self.shop()
        let items = Projection([.init("name", .field("name"))])
        let projection = Projection([
            .init("name", .field("name")),
            .init("Items", .referrers(recordType: "Items", field: "list", predicate: .all, sort: [SortDescriptor("name")], limit: nil, items)),
            .init("first", .referrers(recordType: "Items", field: "list", predicate: .all, sort: [SortDescriptor("name", ascending: false)], limit: 1, items)),
            .init("numbered", .referrers(recordType: "Items", field: "list", predicate: .not(.isNull(key: "number")), sort: [], limit: nil, items)),
        ])
        let json = try db.read { try $0.json(Query("Lists", sort: [SortDescriptor("name")]), projection: projection) }
        #expect(
            json == """
                [{"name":"Groceries","Items":[{"name":"Bread"},{"name":"Milk"}],"first":[{"name":"Milk"}],"numbered":[{"name":"Bread"}]},\
                {"name":"Hardware","Items":[{"name":"Nails"}],"first":[{"name":"Nails"}],"numbered":[]}]
                """)
    }

    @Test func listsWithTheirItemsOverAHundredListsIsOneStatement() throws {
        let log = StatementLog()
        let db = try Self.shop(trace: { log.append($0) })
        try db.modify((0..<100).map { .create(Shopping.list("M\($0)", "List \($0)")) })
        try db.modify((0..<300).map { .create(Shopping.item("J\($0)", "Item \($0)", in: "M\($0 % 100)")) })
        let projection = Projection([
            .init("name", .field("name")),
            .init(
                "Items",
                .referrers(
                    recordType: "Items", field: "list", predicate: .all, sort: [SortDescriptor("name")], limit: nil, Projection([.init("name", .field("name"))])
                )),
        ])
        log.reset()
        let json = try db.read { try $0.json(Query("Lists"), projection: projection) }
        #expect(log.queries.count == 1, "\(log.queries)")
        let lists = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [[String: Any]])
        #expect(lists.count == 102)
        #expect(lists.reduce(0) { $0 + (($1["Items"] as? [Any])?.count ?? 0) } == 303)
    }

    @Test func everyTypeHasItsJSONEncoding() throws {
        let db = try RecordDatabase.inMemory(bootstrap: Schema(recordTypes: [ValueTests.everything]))
        let date = Date(timeIntervalSince1970: 1_763_717_100.123)
        try db.save(
            Record(
                "Everything", recordName: "e1",
                fields: [
                    "s": .string("a \"quoted\"\nline"), "i": .int64(.max), "d": .double(0.1), "n": .double(1.0 / 3),
                    "t": .timestamp(date), "b": .bytes(Data([0, 1, 255])), "r": .reference(Reference("x")),
                    "a": .asset(Asset(content: Data("hi".utf8))), "l": .location(Location(latitude: -33.5, longitude: 151.25)),
                    "ls": .list([.string("a"), .string("b")]), "li": .list([.int64(1)]), "ld": .list([.double(2.5)]),
                    "lt": .list([.timestamp(date)]), "lb": .list([.bytes(Data([1]))]), "lr": .list([.reference(Reference("y"))]),
                    "ll": .list([.location(Location(latitude: 1, longitude: 2))]),
                ]))
        let fields = ["s", "i", "d", "n", "t", "b", "r", "a", "l", "ls", "li", "ld", "lt", "lb", "lr", "ll", "la"]
        let projection = Projection(
            fields.map { .init($0, .field($0)) } + [
                .init("where", .parts(field: "l", [.init("lat", .latitude), .init("__typename", .constant("Location"))])),
                .init("digest", .parts(field: "a", [.init("sha256", .sha256)])),
            ])
        let json = try #require(try db.read { try $0.json(recordName: "e1", recordType: "Everything", projection: projection) })
        #expect(
            json == """
                {"s":"a \\"quoted\\"\\nline","i":9223372036854775807,"d":0.1,"n":0.3333333333333333,\
                "t":"2025-11-21T09:25:00.123Z","b":"AAH/","r":"x",\
                "a":{"size":2,"sha256":"8f434346648f6b96df89dda901c5176b10a6d83961dd3c1ac88b59b2dc327aa4"},\
                "l":{"latitude":-33.5,"longitude":151.25},"ls":["a","b"],"li":[1],"ld":[2.5],\
                "lt":["2025-11-21T09:25:00.123Z"],"lb":["AQ=="],"lr":["y"],"ll":[{"latitude":1.0,"longitude":2.0}],"la":null,\
                "where":{"lat":-33.5,"__typename":"Location"},\
                "digest":{"sha256":"8f434346648f6b96df89dda901c5176b10a6d83961dd3c1ac88b59b2dc327aa4"}}
                """)
    }

    @Test func untypedReferencesResolveWhicheverTypeTheyPointAt() throws {
        let db = try Self.shop()
        try db.addRecordType(RecordType("Notes", fields: [FieldDefinition("about", .reference), FieldDefinition("all", .list(.reference))]))
        try db.save(
            Record(
                "Notes", recordName: "N1",
                fields: [
                    "about": .reference(Reference("I1")),
                    "all": .list([.reference(Reference("L2")), .reference(Reference("gone")), .reference(Reference("I3"))]),
                ]))
        let byType = [
            "Lists": Projection([.init("list", .field("name"))]),
            "Items": Projection([.init("item", .field("name")), .init("type", .recordType)]),
        ]
        let projection = Projection([.init("about", .reference(field: "about", byType)), .init("all", .reference(field: "all", byType))])
        let json = try db.read { try $0.json(recordName: "N1", recordType: "Notes", projection: projection) }
        #expect(json == #"{"about":{"item":"Milk","type":"Items"},"all":[{"list":"Hardware"},null,{"item":"Nails","type":"Items"}]}"#)
    }

    @Test func hostileKeysAndConstantsAreBoundNotSpliced() throws {
        let db = try Self.shop()
        let key = "x'); DROP TABLE Items; --"
        let projection = Projection([.init(key, .constant("\"'; --")), .init("n", .field("name"))])
        let json = try db.read { try $0.json(recordName: "I1", recordType: "Items", projection: projection) }
        #expect(json == #"{"x'); DROP TABLE Items; --":"\"'; --","n":"Milk"}"#)
        #expect(try db.count("Items") == 4)
    }

    @Test func unknownFieldsInAProjectionAreSchemaViolations() throws {
        let db = try Self.shop()
        #expect {
            try db.read { try $0.json(Query("Items"), projection: Projection([.init("x", .field("nope"))])) }
        } throws: { ($0 as? RecordError)?.code == .schemaViolation }
        #expect {
            try db.read { try $0.json(Query("Items"), projection: Projection([.init("x", .reference(field: "name", [:]))])) }
        } throws: { ($0 as? RecordError)?.code == .schemaViolation }
    }

    @Test func jsonPagesVisitEveryRecordOnce() throws {
        let db = try Self.shop()
        try db.modify((0..<250).map { .create(Shopping.item("K\($0)", "Same", in: "L1")) })
        var cursor: String?
        var names: [String] = []
        repeat {
            let page = try db.read {
                try $0.jsonPage(
                    Query("Items", predicate: PredicateField("list") == "L1", sort: [SortDescriptor("name")], limit: 40), after: cursor,
                    projection: Projection([.init("id", .recordName)]))
            }
            let objects = try #require(try JSONSerialization.jsonObject(with: Data(page.records.utf8)) as? [[String: String]])
            names += objects.compactMap { $0["id"] }
            cursor = page.cursor
        } while cursor != nil
        #expect(names.count == 252)
        #expect(Set(names).count == 252)
    }

    @Test func explainShowsTheCompiledSQLAndPlan() throws {
        let db = try Self.shop()
        let explanation = try db.read {
            try $0.explainJSON(Shopping.itemsOf("L1"), projection: Projection([.init("name", .field("name"))]))
        }
        #expect(explanation.sql.contains("json_group_array"))
        #expect(explanation.description.contains("_idx(Items:list:name)"), "\(explanation.plan)")
    }
}

extension StatementLog {
    /// The statements that read or write records (transaction control and pragmas left out).
    var queries: [String] {
        statements.filter { !$0.hasPrefix("PRAGMA") && !$0.hasPrefix("BEGIN") && !$0.hasPrefix("COMMIT") }
    }
}
