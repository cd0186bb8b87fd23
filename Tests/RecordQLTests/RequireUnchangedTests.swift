import GraphQL
import RecordKit
import Testing

@testable import RecordQL

/// `requireUnchanged(records:)`: the mutation's other fields apply only while each record named
/// still has the change tag given.
@Suite("requireUnchanged: a mutation's precondition on change tags")
struct RequireUnchangedTests {
    private static let guardedCreate = """
        mutation($read: [RecordVersionInput!]!) {
          checked: requireUnchanged(records: $read)
          milk: createItems(recordName: "I1", fields: {name: "Milk", list: {recordName: "L1", action: DELETE_SELF}}) { name }
        }
        """

    @Test func currentChangeTagsLetTheMutationApplyAndAreListed() async throws {
        let shop = try EngineFixture()
        await shop.createList("L1", "Groceries", items: [])
        let tag = try #require(try shop.database.fetch(recordName: "L1")?.changeTag)
        let read: Map = [["recordName": "L1", "changeTag": .string(tag)]]
        #expect(await shop.data(Self.guardedCreate, variables: ["read": read]) == #"{"data":{"checked":["L1"],"milk":{"name":"Milk"}}}"#)
        #expect(try shop.database.fetch(recordName: "L1")?.changeTag == tag)
    }

    @Test func aStaleChangeTagRefusesTheMutationAndChangesNothing() async throws {
        let shop = try EngineFixture()
        await shop.createList("L1", "Groceries", items: [])
        let tag = try #require(try shop.database.fetch(recordName: "L1")?.changeTag)
        _ = await shop.data(#"mutation { updateLists(recordName: "L1", fields: {name: "Hardware"}) { name } }"#)
        let response = await shop.run(Self.guardedCreate, variables: ["read": [["recordName": "L1", "changeTag": .string(tag)]]])
        #expect(response.errors.map(\.code) == [.serverRecordChanged])
        #expect(response.errors.first?.path == [.key("checked")])
        #expect(await shop.data("{ Items { name } }") == #"{"data":{"Items":[]}}"#)
    }
}
