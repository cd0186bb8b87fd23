import GraphQL
import RecordKit
import Testing

@testable import RecordQL

/// The product brief's story, told through the query language alone.
@Suite("The shopping story through GraphQL")
struct EngineStoryTests {
    @Test func shoppingListsLiveThroughTheLanguage() async throws {
        let shop = try EngineFixture()

        // A list and three items in one mutation, recordNames chosen by the client.
        let created = await shop.data(
            """
            mutation {
              list: createLists(recordName: "L1", fields: {name: "Groceries"}) { recordName name }
              milk: createItems(recordName: "I1", fields: {name: "Milk", list: {recordName: "L1", action: DELETE_SELF}}) { recordName }
              bread: createItems(recordName: "I2", fields: {name: "Bread", list: {recordName: "L1", action: DELETE_SELF}}) { recordName }
              eggs: createItems(recordName: "I3", fields: {name: "Eggs", list: {recordName: "L1", action: DELETE_SELF}}) { recordName list { name } }
            }
            """)
        #expect(
            created == #"""
                {"data":{"list":{"recordName":"L1","name":"Groceries"},"milk":{"recordName":"I1"},"bread":{"recordName":"I2"},"eggs":{"recordName":"I3","list":{"name":"Groceries"}}}}
                """#)

        // The items of the list, sorted by name: by predicate and by filter.
        let sorted = #"{"data":{"Items":[{"name":"Bread"},{"name":"Eggs"},{"name":"Milk"}]}}"#
        #expect(await shop.data(#"{ Items(predicate: "list == 'L1'", sort: [{name: ASC}]) { name } }"#) == sorted)
        #expect(await shop.data(#"{ Items(where: {list: {eq: "L1"}}, sort: [{name: ASC}]) { name } }"#) == sorted)

        // Before the schema evolves, `number` is unknown and the error says how to add it.
        let unknown = try await shop.error("{ Items { number } }")
        #expect(unknown.code == .schemaViolation)
        #expect(unknown.message.contains("Items has no field 'number'"))
        #expect(unknown.remedy == .addField(recordType: "Items", field: "number", type: nil))
        #expect(unknown.locations == [.init(line: 1, column: 11)])

        // Evolve the schema: the language knows `number` at once; old items have none.
        try shop.database.addField(FieldDefinition("number", .int64, flags: [.queryable, .sortable]), to: "Items")
        #expect(await shop.data(#"{ Items(sort: [{name: ASC}], limit: 1) { name number } }"#) == #"{"data":{"Items":[{"name":"Bread","number":null}]}}"#)

        let updated = await shop.data(#"mutation { updateItems(recordName: "I1", fields: {number: 2}) { name number } }"#)
        #expect(updated == #"{"data":{"updateItems":{"name":"Milk","number":2}}}"#)
        #expect(await shop.data(#"{ Items(predicate: "number >= 2") { recordName } }"#) == #"{"data":{"Items":[{"recordName":"I1"}]}}"#)

        // Deleting the list deletes its items.
        let deleted = await shop.data(#"mutation { deleteLists(recordName: "L1") { deleted } }"#)
        #expect(deleted.hasPrefix(#"{"data":{"deleteLists":{"deleted":["L1","#))
        for item in ["I1", "I2", "I3"] { #expect(deleted.contains("\"\(item)\"")) }
        #expect(await shop.data("{ Lists { name } Items { name } }") == #"{"data":{"Lists":[],"Items":[]}}"#)
    }

    @Test func listsShowTheirItemsThroughTheReverseReference() async throws {
        let shop = try EngineFixture()
        await shop.createList("L1", "Groceries", items: [("I1", "Milk"), ("I2", "Bread")])
        await shop.createList("L2", "Hardware", items: [("I3", "Nails")])
        let json = await shop.data(#"{ Lists(sort: [{name: DESC}]) { name Items(sort: [{name: ASC}]) { name list { recordName } } } }"#)
        #expect(
            json == #"""
                {"data":{"Lists":[{"name":"Hardware","Items":[{"name":"Nails","list":{"recordName":"L2"}}]},{"name":"Groceries","Items":[{"name":"Bread","list":{"recordName":"L1"}},{"name":"Milk","list":{"recordName":"L1"}}]}]}}
                """#)
    }
}
