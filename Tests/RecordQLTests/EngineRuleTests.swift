import Foundation
import RecordKit
import Testing

@testable import RecordQL

/// The shopping schema's rules hold through GraphQL as through every other way in: the engine
/// refuses the write, the response names the rule, and nothing is applied.
@Suite("Schema rules through mutations")
struct EngineRuleTests {
    static func shop() async throws -> EngineFixture {
        let shop = try EngineFixture()
        await shop.createList("L1", "Party", items: [("I1", "Milk")])
        return shop
    }

    @Test(arguments: [
        (#"createLists(fields: {name: "Party"}) { recordName }"#, "UNIQUE (name)"),
        (#"createLists(fields: {name: ""}) { recordName }"#, "Lists.name is NOT EMPTY"),
        (#"createLists(fields: {}) { recordName }"#, "Lists.name is NOT EMPTY"),
        (#"createItems(fields: {name: "Milk", list: {recordName: "L1", action: DELETE_SELF}}) { recordName }"#, "UNIQUE (list, name)"),
        (#"createItems(fields: {name: "", list: {recordName: "L1", action: DELETE_SELF}}) { recordName }"#, "Items.name is NOT EMPTY"),
        (#"updateLists(recordName: "L1", fields: {name: null}) { name }"#, "Lists.name is NOT EMPTY"),
    ])
    func aMutationBreakingARuleIsRefusedAndChangesNothing(field: String, message: String) async throws {
        let shop = try await Self.shop()
        let before = await shop.data("{ Lists { recordName name Items { recordName name } } }")
        // Alongside a valid field, so that refusing it must roll the whole operation back.
        let error = try await shop.error(#"mutation { ok: createLists(fields: {name: "Work"}) { recordName } bad: "# + field + " }")
        #expect(error.code == .schemaViolation)
        #expect(error.message.contains(message), "\(error.message)")
        #expect(await shop.data("{ Lists { recordName name Items { recordName name } } }") == before)
    }

    @Test func theSameItemNameMayBeUsedInAnotherList() async throws {
        let shop = try await Self.shop()
        await shop.createList("L2", "Work", items: [("I2", "Milk")])
        #expect(await shop.data(#"{ Items(sort: [{name: ASC}]) { list { name } } }"#).contains("Work"))
    }
}
