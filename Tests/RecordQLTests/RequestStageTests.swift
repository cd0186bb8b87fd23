import Foundation
import GraphQL
import RecordKit
import Testing

@testable import RecordQL

/// `prepare` tells where a request failed and what kind of operation it is before running it,
/// which GraphQL over HTTP answers by (400, 422, 405).
@Suite struct RequestStageTests {
    let shop: EngineFixture

    init() throws {
        shop = try EngineFixture()
    }

    /// The stage of a failing request, and the kind of its operation when known.
    private func failure(_ document: String, variables: [String: Map] = [:], operationName: String? = nil) async -> RequestFailure? {
        do {
            _ = try await shop.engine.prepare(document: document, variables: variables, operationName: operationName)
            return nil
        } catch {
            return error
        }
    }

    @Test func eachFailureNamesItsStage() async {
        #expect(await failure("{ Lists { name ").map(\.stage) == .parse)
        #expect(await failure("{ Nope { name } }").map(\.stage) == .validation)
        #expect(await failure("query A { Lists { name } } query B { Items { name } }", operationName: "C").map(\.stage) == .validation)
        #expect(await failure("query($n: Int!) { Items(limit: $n) { name } }").map(\.stage) == .variables)
        #expect(await failure("query($n: Int!) { Items(limit: $n) { name } }", variables: ["n": "x"]).map(\.stage) == .variables)
    }

    /// Two fields under one response key that cannot merge fail GraphQL's validation ("Field
    /// Selection Merging", which the planner checks): the request does not run, so no `data`.
    @Test(arguments: [
        "{ Lists { name name: recordName } }",
        "{ a: Lists { name } a: Items { name } }",
        "{ Lists { Items { name } } Lists { Items { name: recordName } } }",
        "{ Lists { ...F name: recordName } } fragment F on Lists { name }",
        #"mutation { a: createLists(fields: {name: "G"}) { name } a: createLists(fields: {name: "H"}) { name } }"#,
    ])
    func fieldsThatCannotMergeFailValidation(document: String) async throws {
        let failure = try #require(await failure(document))
        #expect(failure.stage == .validation)
        #expect(failure.response.json.hasPrefix(#"{"errors":[{"message":"#), "\(failure.response.json)")
        #expect(failure.response.json.contains("names two different fields"), "\(failure.response.json)")
        #expect(try shop.database.records(matching: Query("Lists")).isEmpty)
    }

    @Test func theKindIsKnownOnceTheDocumentParses() async throws {
        #expect(try await shop.engine.prepare(document: "{ Lists { name } }").kind == .query)
        #expect(try await shop.engine.prepare(document: #"mutation { createLists(fields: {name: "G"}) { name } }"#).kind == .mutation)
        let invalid = await failure("mutation { createNope(fields: {}) { name } }")
        #expect(invalid?.stage == .validation && invalid?.kind == .mutation)
        #expect(try await shop.engine.prepare(document: "subscription { Lists { name } }").kind == .subscription)
        let subscription = await failure("subscription { Lists { name } Items { name } }")
        #expect(subscription?.stage == .validation && subscription?.kind == .subscription)
        #expect(await failure("{ Lists { name ")?.kind == nil)
    }

    @Test func preparingRunsNothingAndRunningDoes() async throws {
        let prepared = try await shop.engine.prepare(document: #"mutation { createLists(recordName: "L1", fields: {name: "G"}) { name } }"#)
        #expect(try shop.database.records(matching: Query("Lists")).isEmpty)
        let response = await shop.engine.run(prepared)
        #expect(response.json == #"{"data":{"createLists":{"name":"G"}}}"#)
        #expect(try shop.database.records(matching: Query("Lists")).count == 1)
    }

    @Test func aFailureWhileRunningIsTheExecutionStage() async {
        let response = await shop.run(#"{ ItemsPage(after: "garbage") { cursor } }"#)
        #expect(response.failedStage == .execution)
        #expect(response.json.hasPrefix(#"{"data":null,"#))
    }

    /// A request planned against one schema version runs after the schema moved: the store
    /// says so inside the transaction and the engine plans it again.
    @Test func anOperationPreparedBeforeASchemaChangeIsPlannedAgain() async throws {
        let prepared = try await shop.engine.prepare(document: "{ Items { name } }")
        try shop.database.addField(FieldDefinition("number", .int64), to: "Items")
        let response = await shop.engine.run(prepared)
        #expect(response.json == #"{"data":{"Items":[]}}"#)
        #expect(shop.engine.plans.count == 1, "kept once, for the version it ran at")
    }

    /// Another process (here: the engine's database directly) adds a field the engine has not
    /// seen: a request using it is valid, not refused against the engine's older schema.
    @Test func aFieldAddedBehindTheEnginesBackIsSeen() async throws {
        _ = await shop.data("{ Items { name } }")
        try shop.database.addField(FieldDefinition("number", .int64), to: "Items")
        #expect(await shop.data("{ Items { number } }") == #"{"data":{"Items":[]}}"#)
    }
}
