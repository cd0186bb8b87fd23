import Foundation
import RecordKit
import Testing

@testable import RecordQL

/// Subscriptions: the query's result at once, then its new result after each commit that
/// changes it; an unchanged result, a commit to another record type and a rolled-back batch
/// give nothing.
@Suite
struct LiveQueryTests {
    let shop: EngineFixture

    init() throws {
        shop = try EngineFixture()
    }

    private static let itemsOfL1 = #"subscription { Items(where: {list: {eq: "L1"}}, sort: [{name: ASC}]) { name } }"#

    private func create(_ name: String, in list: String) async {
        _ = await shop.data(#"mutation { createItems(fields: {name: "\#(name)", list: {recordName: "\#(list)", action: DELETE_SELF}}) { name } }"#)
    }

    @Test func theResultComesAtOnceThenAfterEachCommitThatChangesIt() async throws {
        _ = await shop.data(
            #"mutation { a: createLists(recordName: "L1", fields: {name: "Groceries"}) { name } b: createLists(recordName: "L2", fields: {name: "Hardware"}) { name } }"#
        )
        let operation = try await shop.engine.prepare(document: Self.itemsOfL1)
        #expect(operation.kind == .subscription)
        var results = shop.engine.subscribe(operation).makeAsyncIterator()
        #expect(await results.next()?.json == #"{"data":{"Items":[]}}"#)
        await create("Milk", in: "L1")
        #expect(await results.next()?.json == #"{"data":{"Items":[{"name":"Milk"}]}}"#)
        // Items of another list change nothing this subscription reads: no result for it.
        await create("Nails", in: "L2")
        await create("Eggs", in: "L1")
        #expect(await results.next()?.json == #"{"data":{"Items":[{"name":"Eggs"},{"name":"Milk"}]}}"#)
    }

    @Test func aRolledBackBatchNeverAppears() async throws {
        _ = await shop.data(#"mutation { createLists(recordName: "L1", fields: {name: "Groceries"}) { name } }"#)
        let operation = try await shop.engine.prepare(document: Self.itemsOfL1)
        var results = shop.engine.subscribe(operation).makeAsyncIterator()
        #expect(await results.next()?.json == #"{"data":{"Items":[]}}"#)
        // The second item breaks the list's UNIQUE (list, name) rule: the whole batch rolls back.
        let failed = await shop.run(
            #"mutation { a: createItems(fields: {name: "Ghost", list: {recordName: "L1", action: DELETE_SELF}}) { name } b: createItems(fields: {name: "Ghost", list: {recordName: "L1", action: DELETE_SELF}}) { name } }"#
        )
        #expect(!failed.isSuccess)
        await create("Milk", in: "L1")
        #expect(await results.next()?.json == #"{"data":{"Items":[{"name":"Milk"}]}}"#)
    }

    @Test func aCommitToAnotherRecordTypeRunsNothing() async throws {
        _ = await shop.data(#"mutation { createLists(recordName: "L1", fields: {name: "Groceries"}) { name } }"#)
        let operation = try await shop.engine.prepare(document: #"subscription { Items { name } }"#)
        #expect(operation.recordTypesRead == ["Items"])
        let withList = try await shop.engine.prepare(document: #"subscription { Items { name list { name } } }"#)
        #expect(withList.recordTypesRead == ["Items", "Lists"])
        let feed = try await shop.engine.prepare(document: #"subscription { changes { syncToken } }"#)
        #expect(feed.recordTypesRead == nil)
    }

    @Test func aSubscriptionSelectsOneRootField() async {
        for document in [
            "subscription { Lists { name } Items { name } }", "subscription { __typename }",
            "subscription { ...F } fragment F on Subscription { Lists { name } }",
        ] {
            do {
                _ = try await shop.engine.prepare(document: document)
                Issue.record("\(document) was accepted")
            } catch {
                #expect(error.stage == .validation && error.kind == .subscription, "\(document)")
            }
        }
    }
}
