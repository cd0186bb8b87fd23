import GraphQL
import RecordKit
import TestSupport
import Testing

@testable import RecordQL

@Suite("Mutations: one atomic transaction per operation")
struct EngineMutationTests {
    @Test func aFailingFieldLeavesNothingAppliedAndIsNamed() async throws {
        let shop = try EngineFixture()
        let response = await shop.run(
            """
            mutation {
              list: createLists(recordName: "L1", fields: {name: "Groceries"}) { recordName }
              milk: createItems(recordName: "I1", fields: {name: "Milk", list: {recordName: "L1", action: DELETE_SELF}}) { recordName }
              stray: createItems(recordName: "I2", fields: {name: "Stray", list: {recordName: "L9", action: DELETE_SELF}}) { recordName }
            }
            """)
        let error = try #require(response.errors.first)
        #expect(response.errors.count == 1)
        #expect(error.code == .referenceViolation)
        #expect(error.path == [.key("stray")])
        #expect(error.locations == [.init(line: 4, column: 3)])
        #expect(error.message.contains("L9"))
        #expect(response.json.hasPrefix(#"{"data":null,"errors":[{"message":"#))
        #expect(await shop.data("{ Lists { recordName } Items { recordName } }") == #"{"data":{"Lists":[],"Items":[]}}"#)
    }

    @Test func aStaleChangeTagIsRefusedAndChangesNothing() async throws {
        let shop = try EngineFixture()
        await shop.createList("L1", "Groceries", items: [])
        let tag = try #require(try shop.database.fetch(recordName: "L1")?.changeTag)

        let renamed = await shop.data(#"mutation { updateLists(recordName: "L1", ifChangeTag: "\#(tag)", fields: {name: "Food"}) { name } }"#)
        #expect(renamed == #"{"data":{"updateLists":{"name":"Food"}}}"#)

        let stale = try await shop.error(#"mutation { updateLists(recordName: "L1", ifChangeTag: "\#(tag)", fields: {name: "Drinks"}) { name } }"#)
        #expect(stale.code == .serverRecordChanged)
        #expect(stale.path == [.key("updateLists")])
        #expect(await shop.data("{ Lists { name } }") == #"{"data":{"Lists":[{"name":"Food"}]}}"#)
    }

    @Test func aTransactionIDMakesARetryReturnTheStoredResponse() async throws {
        let shop = try EngineFixture()
        // No recordName: the first run generates one, and the retry must return that same one.
        let document = #"mutation Add($name: String!) @transaction(id: "T1") { createLists(fields: {name: $name}) { recordName name } }"#
        let first = await shop.run(document, variables: ["name": "Groceries"])
        #expect(first.isSuccess, "\(first.json)")
        let retry = await shop.run(document, variables: ["name": "Groceries"])
        #expect(retry.json == first.json)
        #expect(retry.isReplay && !first.isReplay)
        #expect(try shop.database.records(matching: Query("Lists")).count == 1)
        #expect(try shop.database.transaction(id: "T1").result.contains("Groceries"))

        let other = await shop.run(document, variables: ["name": "Hardware"])
        #expect(other.errors.map(\.code) == [.transactionConflict])
        // Nothing ran: a request error, without `data`.
        #expect(other.failedStage == .transaction)
        #expect(
            other.json
                == #"{"errors":[{"message":"the transaction ID 'T1' was used for a different request; send a new one for a new request","extensions":{"code":"transactionConflict"}}]}"#
        )
        #expect(try shop.database.records(matching: Query("Lists")).count == 1)
    }

    @Test func aTransactionIDTellsApartIntegersADoubleCannot() async throws {
        let shop = try EngineFixture(
            bootstrap: try CKDBParser.parse("DEFINE SCHEMA RECORD TYPE Counters ( name STRING QUERYABLE, count INT64 QUERYABLE );"))
        let document = #"mutation Set($count: Int64!) @transaction(id: "T4") { createCounters(fields: {name: "c", count: $count}) { count } }"#
        // 2^53 + 1 and 2^53 are one Double: the request is stored with its integers exact.
        let first = await shop.run(document, variables: ["count": .number(Number(Int64(9_007_199_254_740_993)))])
        #expect(first.json == #"{"data":{"createCounters":{"count":9007199254740993}}}"#)
        let other = await shop.run(document, variables: ["count": .number(Number(Int64(9_007_199_254_740_992)))])
        #expect(other.errors.map(\.code) == [.transactionConflict])
        let stored = try shop.database.transaction(id: "T4")
        #expect(stored.request.contains(#""variables":{"count":9007199254740993}"#), "\(stored.request)")
        // The result is stored as the data object's own JSON, shown as it was answered.
        #expect(stored.result == #"{"createCounters":{"count":9007199254740993}}"#)
    }

    @Test func aFailedTransactionIsNotStoredSoItsRetryRunsAgain() async throws {
        let shop = try EngineFixture()
        let document =
            #"mutation @transaction(id: "T2") { createItems(recordName: "I1", fields: {name: "Milk", list: {recordName: "L1", action: DELETE_SELF}}) { recordName } }"#
        #expect(await shop.run(document).errors.map(\.code) == [.referenceViolation])
        await shop.createList("L1", "Groceries", items: [])
        #expect(await shop.data(document) == #"{"data":{"createItems":{"recordName":"I1"}}}"#)
    }

    @Test func theTransactionIDMayBeAVariable() async throws {
        let shop = try EngineFixture()
        let document = #"mutation($id: String!) @transaction(id: $id) { createLists(recordName: "L1", fields: {name: "A"}) { recordName } }"#
        #expect(await shop.data(document, variables: ["id": "T3"]) == #"{"data":{"createLists":{"recordName":"L1"}}}"#)
        #expect(await shop.data(document, variables: ["id": "T3"]) == #"{"data":{"createLists":{"recordName":"L1"}}}"#)
        #expect(try shop.database.transactions().map(\.id) == ["T3"])
    }

    @Test func updatesSetAndRemoveValuesAndProjectReferences() async throws {
        let shop = try EngineFixture(bootstrap: try Schema.shopping.withoutRules)
        await shop.createList("L1", "Groceries", items: [("I1", "Milk")])
        let moved = await shop.data(#"mutation { updateItems(recordName: "I1", fields: {name: null}) { __typename name list { name } } }"#)
        #expect(moved == #"{"data":{"updateItems":{"__typename":"Items","name":null,"list":{"name":"Groceries"}}}}"#)
    }

    @Test func deletesReportTheCascadeAndRefuseOtherTypes() async throws {
        let shop = try EngineFixture()
        await shop.createList("L1", "Groceries", items: [("I1", "Milk")])
        let wrongType = try await shop.error(#"mutation { deleteItems(recordName: "L1") { deleted } }"#)
        #expect(wrongType.code == .unknownItem)
        let missing = try await shop.error(#"mutation { deleteLists(recordName: "L9") { deleted } }"#)
        #expect(missing.code == .unknownItem)
        let deleted = await shop.data(#"mutation { gone: deleteLists(recordName: "L1") { __typename names: deleted } }"#)
        #expect(deleted == #"{"data":{"gone":{"__typename":"DeleteResult","names":["L1","I1"]}}}"#)
    }

    @Test func fieldsRunInOrderSoLaterFieldsSeeEarlierOnes() async throws {
        let shop = try EngineFixture()
        let json = await shop.data(
            """
            mutation {
              createLists(recordName: "L1", fields: {name: "A"}) { name }
              updateLists(recordName: "L1", fields: {name: "B"}) { name }
              __typename
            }
            """)
        #expect(json == #"{"data":{"createLists":{"name":"A"},"updateLists":{"name":"B"},"__typename":"Mutation"}}"#)
    }
}
