import GraphQL
import RecordKit
import TestSupport
import Testing

@testable import RecordQL

/// Query plans (with their compiled SQL) are reused only for the very same request against the
/// same schema version, and never hold data.
@Suite("Plan cache")
struct PlanCacheTests {
    @Test func aQueryAskedAgainIsPlannedOnce() async throws {
        let shop = try EngineFixture()
        await shop.createList("L1", "Groceries", items: [("I1", "Milk")])
        let document = #"{ Items(where: {list: {eq: "L1"}}, sort: [{name: ASC}], limit: 50) { name list { name } } }"#
        let first = await shop.data(document)
        let statements = await shop.dataStatements {
            #expect(await shop.data(document) == first)
        }
        #expect(statements.count == 1, "\(statements)")
        #expect(shop.engine.plans.count == 1)
    }

    @Test func aPlanNeverServesOtherVariables() async throws {
        let shop = try EngineFixture()
        await shop.createList("L1", "Groceries", items: [("I1", "Milk"), ("I2", "Bread")])
        await shop.createList("L2", "Hardware", items: [("I3", "Nails")])
        let document =
            "query($list: ID!, $n: Int, $withList: Boolean!) { Items(where: {list: {eq: $list}}, sort: [{name: ASC}], limit: $n) { name list @include(if: $withList) { name } } }"
        let asked: [([String: Map], String)] = [
            (["list": "L1", "n": 1, "withList": false], #"{"data":{"Items":[{"name":"Bread"}]}}"#),
            (["list": "L1", "n": 2, "withList": false], #"{"data":{"Items":[{"name":"Bread"},{"name":"Milk"}]}}"#),
            (["list": "L2", "n": 2, "withList": false], #"{"data":{"Items":[{"name":"Nails"}]}}"#),
            (["list": "L2", "n": 2, "withList": true], #"{"data":{"Items":[{"name":"Nails","list":{"name":"Hardware"}}]}}"#),
            (["list": "L1", "n": 1, "withList": false], #"{"data":{"Items":[{"name":"Bread"}]}}"#),
        ]
        for (variables, expected) in asked {
            #expect(await shop.data(document, variables: variables) == expected, "\(variables)")
        }
        #expect(shop.engine.plans.count == 4)
    }

    /// Swift's `==` on strings is canonical equivalence; storage compares bytes. Texts and
    /// variables differing only in the composition of "é" ask for different lists.
    @Test func equalButByteDifferentTextsAreDifferentRequests() async throws {
        let shop = try EngineFixture()
        let composed = "Caf\u{E9}", decomposed = "Cafe\u{301}"
        await shop.createList("L1", composed, items: [])
        await shop.createList("L2", decomposed, items: [])
        for _ in 0..<2 {
            for (name, recordName) in [(composed, "L1"), (decomposed, "L2")] {
                let literal = "{ Lists(where: {name: {eq: \"\(name)\"}}) { recordName } }"
                #expect(await shop.data(literal) == #"{"data":{"Lists":[{"recordName":"\#(recordName)"}]}}"#)
                let variable = "query($name: String) { Lists(where: {name: {eq: $name}}) { recordName } }"
                #expect(await shop.data(variable, variables: ["name": .string(name)]) == #"{"data":{"Lists":[{"recordName":"\#(recordName)"}]}}"#)
            }
        }
    }

    @Test func aPlanHoldsNoData() async throws {
        let shop = try EngineFixture()
        let document = "{ Lists(sort: [{name: ASC}]) { name } }"
        #expect(await shop.data(document) == #"{"data":{"Lists":[]}}"#)
        await shop.createList("L1", "Groceries", items: [])
        #expect(await shop.data(document) == #"{"data":{"Lists":[{"name":"Groceries"}]}}"#)
    }

    @Test func aSchemaChangeMakesNewPlans() async throws {
        let shop = try EngineFixture()
        await shop.createList("L1", "Groceries", items: [("I1", "Milk")])
        let document = "{ Items { name list { name } } }"
        let before = await shop.data(document)
        try shop.database.addField(FieldDefinition("number", .int64), to: "Items")
        try shop.database.addField(FieldDefinition("note", .string), to: "Lists")
        #expect(await shop.data(document) == before)
        #expect(shop.engine.plans.count == 2, "one plan per schema version")
    }

    @Test func failuresAndMutationsAreNotKept() async throws {
        let shop = try EngineFixture()
        for _ in 0..<2 {
            #expect(try await shop.error(#"{ Items(predicate: "size > 2") { name } }"#).code == .schemaViolation)
            #expect(try await shop.error("{ Items(limit: -1) { name } }").code == .invalidArguments)
        }
        await shop.createList("L1", "Groceries", items: [])
        #expect(shop.engine.plans.count == 0)
    }

    @Test func variablesAreToldApartExactly() throws {
        func text(_ variables: [String: Map]) -> String? {
            ExactMapText.text(of: variables, maximumLength: 1_024)
        }
        #expect(Map.number(Number(2)) == Map.number(Number(2.0)), "Map's own == takes these for one value")
        #expect(text(["n": .number(Number(2))]) != text(["n": .number(Number(2.0))]))
        #expect(text(["n": .number(Number(1))]) != text(["n": .bool(true)]))
        #expect(text(["n": .number(Number(Int64.max))]) != text(["n": .number(Number(Double(Int64.max)))]))
        #expect(text(["s": .string("a")]) != text(["s": .array([.string("a")])]))
        #expect(text(["a": "x", "b": "y"]) != text(["a": "xb", "": "y"]), "lengths delimit strings")
        #expect(text(["o": ["a": 1, "b": 2]]) != text(["o": ["b": 2, "a": 1]]), "an object's key order is kept")
        #expect(text(["a": 1, "b": 2]) == text(["b": 2, "a": 1]), "the variables' own order is not")
        #expect(text(["s": .null]) != text(["s": .undefined]))
        #expect(text(["big": .string(String(repeating: "x", count: 2_000))]) == nil, "too large to keep")
    }

    @Test func aStatementCompiledForOneSchemaVersionIsRefusedByAnother() throws {
        let database = try RecordDatabase.inMemory(bootstrap: .shopping)
        let compiled = try database.read { try $0.compileJSON(Query("Lists"), projection: Projection([.init("name", .field("name"))])) }
        #expect(try database.read { try $0.json(compiled) } == "[]")
        try database.addField(FieldDefinition("note", .string), to: "Lists")
        #expect(throws: RecordError.self) { try database.read { try $0.json(compiled) } }
    }
}
