import GraphQL
import RecordKit
import TestSupport
import Testing

@testable import RecordQL

/// What a request costs: SQL statements per root field, parses per document text.
@Suite("Statements and caches")
struct EngineCostTests {
    @Test func listsWithTheirItemsAreOneStatement() async throws {
        let shop = try EngineFixture()
        try shop.database.modify(
            (0..<100).flatMap { list in
                [.create(Record("Lists", recordName: "L\(list)", fields: ["name": .string("List \(list)")]))]
                    + (0..<3).map { item in
                        .create(
                            Record(
                                "Items", recordName: "L\(list)-I\(item)",
                                fields: [
                                    "name": .string("Item \(item)"), "list": .reference(Reference("L\(list)", action: .deleteSelf)),
                                ]))
                    }
            })
        var json = ""
        let statements = await shop.dataStatements {
            json = await shop.data("{ Lists { name Items { name list { name } } } }")
        }
        #expect(statements.count == 1, "\(statements)")
        let lists = JSONValue(parsing: json)?["data"]?["Lists"]
        guard case .array(let rows)? = lists else {
            Issue.record("no lists in \(json)")
            return
        }
        #expect(rows.count == 100)
        #expect(rows.allSatisfy { if case .array(let items)? = $0["Items"] { items.count == 3 } else { false } })
    }

    @Test func eachRootFieldIsOneStatement() async throws {
        let shop = try EngineFixture()
        await shop.createList("L1", "Groceries", items: [("I1", "Milk")])
        let statements = await shop.dataStatements {
            _ = await shop.data("{ __typename a: Lists { name } b: Items { list { Items { name } } } c: ItemsPage(limit: 1) { records { name } cursor } }")
        }
        #expect(statements.count == 3, "\(statements)")
    }

    @Test func aDocumentSeenBeforeIsNotParsedAgain() async throws {
        let shop = try EngineFixture()
        let document = "query($n: Int) { Lists(limit: $n) { name } }"
        _ = await shop.data(document, variables: ["n": 1])
        let parses = shop.engine.documentParseCount
        _ = await shop.data(document, variables: ["n": 2])
        _ = await shop.run("{ Nope }")
        _ = await shop.run("{ Nope }")
        #expect(shop.engine.documentParseCount == parses + 1, "the valid text is cached, and so is the invalid one")
    }

    @Test func theSchemaIsRegeneratedWhenItEvolves() async throws {
        let shop = try EngineFixture()
        let document = "{ Items { number } }"
        #expect(await shop.run(document).errors.map(\.code) == [.schemaViolation])
        try shop.database.addField(FieldDefinition("number", .int64), to: "Items")
        #expect(await shop.data(document) == #"{"data":{"Items":[]}}"#)
        #expect(shop.engine.documentParseCount == 2, "validated documents are cached per schema version")
    }

    @Test func theDocumentCacheIsBounded() throws {
        let cache = DocumentCache(capacity: 2)
        let context = try SchemaContext(schema: try Schema.shopping, generation: 1)
        for text in ["{ a: Lists { name } }", "{ b: Lists { name } }", "{ c: Lists { name } }", "{ a: Lists { name } }"] {
            _ = try cache.document(text, for: context)
        }
        #expect(cache.parseCount == 4, "the oldest entry was dropped for the third, so the first is parsed again")
        _ = try cache.document("{ a: Lists { name } }", for: context)
        #expect(cache.parseCount == 4)
    }

    /// Validating a document records the argument definitions its fields use in the context it
    /// was validated against; a second context of the same schema version (two requests may
    /// build one each) must not be handed that document without its own record of them.
    @Test func aDocumentValidatedInOneContextIsValidatedAgainInAnotherOfTheSameVersion() throws {
        let cache = DocumentCache()
        let schema = try Schema.shopping
        let first = try SchemaContext(schema: schema, generation: 1)
        let second = try SchemaContext(schema: schema, generation: 1)
        let text = #"{ Items(sort: [{name: ASC}], limit: 5) { name } }"#
        _ = try cache.document(text, for: first)
        _ = try cache.document(text, for: second)
        #expect(cache.parseCount == 2)
        #expect(second.arguments.arguments(of: "Items", in: "Query").map(\.name).contains("limit"))
    }

    @Test func aReaderOnAnOlderSchemaVersionLeavesTheNewerContextCached() throws {
        let contexts = SchemaContextCache()
        let schema = try Schema.shopping
        let newer = try contexts.context(for: schema, version: 2)
        let older = try contexts.context(for: schema, version: 1)
        #expect(older.generation == 1 && older !== newer)
        #expect(try contexts.context(for: schema, version: 2) === newer)
    }

    @Test func aTooLongTextIsRefusedWithoutEnteringTheDocumentCache() throws {
        let cache = DocumentCache()
        let context = try SchemaContext(schema: try Schema.shopping, generation: 1)
        let text = "{ Lists { name } }" + String(repeating: " ", count: DocumentLimits.maximumLength)
        #expect { try cache.document(text, for: context) } throws: { ($0 as? GraphQLFailure)?.errors.first?.code == .limitExceeded }
        #expect(cache.parseCount == 0)
    }

    @Test func explainShowsTheSQLAndPlanOfEachRootField() async throws {
        let shop = try EngineFixture()
        let text = try await shop.engine.explain(#"{ Items(predicate: "list == 'L1'", sort: [{name: ASC}], limit: 50) { name } n: __typename }"#)
        #expect(text.hasPrefix("Items\n  SELECT json_group_array("))
        #expect(text.contains("  plan:\n    "))
        #expect(text.contains("n: __typename\n  answered from the schema, without SQL"))
        await #expect(throws: RecordError.self) { try await shop.engine.explain("mutation { deleteLists(recordName: \"L1\") { deleted } }") }
        do {
            _ = try await shop.engine.explain("{ Items { size } }")
            Issue.record("an unknown field is explained")
        } catch {
            #expect(error.code == .schemaViolation)
            #expect(error.location?.column == 11)
        }
    }
}
