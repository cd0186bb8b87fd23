import GraphQL
import RecordKit
import Testing
@testable import RecordQL

/// Snapshots of the tables the REPL prints.
@Suite("Responses as tables")
struct ResponseTableTests {
    let shop: EngineFixture

    init() async throws {
        shop = try EngineFixture()
        try shop.database.addField(FieldDefinition("number", .int64, flags: [.queryable, .sortable]), to: "Items")
        _ = await shop.data("""
            mutation {
              createLists(recordName: "L1", fields: {name: "Groceries"}) { recordName }
              a: createItems(recordName: "I1", fields: {name: "Milk", number: 2, list: {recordName: "L1"}}) { recordName }
              b: createItems(recordName: "I2", fields: {name: "Bread", list: {recordName: "L1"}}) { recordName }
              c: createItems(recordName: "I3", fields: {name: "Eggs", number: 12, list: {recordName: "L1"}}) { recordName }
            }
            """)
    }

    private func table(_ document: String) async -> String {
        ResponseTable.render(await shop.run(document))
    }

    @Test func aListOfRecordsIsATableInSelectionOrder() async {
        #expect(await table("{ Items(sort: [{name: ASC}]) { name number list { name } } }") == """
            name   number  list
            -----  ------  ---------
            Bread          Groceries
            Eggs       12  Groceries
            Milk        2  Groceries

            """)
    }

    @Test func nestedRecordsShowTheirNameOrRecordNameAndListsAreJoined() async {
        #expect(await table("{ Lists { id: recordName Items(sort: [{name: ASC}]) { recordName } } }") == """
            id  Items
            --  ----------
            L1  I2, I3, I1

            """)
    }

    @Test func aPageIsItsRecordsThenWhereTheNextOneStarts() async throws {
        let text = await table("{ ItemsPage(sort: [{name: ASC}], limit: 2) { records { name } cursor } }")
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines.prefix(4) == ["name", "-----", "Bread", "Eggs"])
        #expect(lines[4].hasPrefix("more after: \""))
        #expect(await table("{ ItemsPage(where: {name: {eq: \"Tea\"}}) { records { name } cursor } }") == "(none)\n")
    }

    @Test func aMutationResultIsARowAndSeveralFieldsAreSections() async {
        #expect(await table(#"mutation { updateItems(recordName: "I2", fields: {number: 1}) { name number } }"#) == """
            name   number
            -----  ------
            Bread       1

            """)
        #expect(await table("{ __typename Lists { name } }") == """
            __typename:
            Query

            Lists:
            name
            ---------
            Groceries

            """)
    }

    @Test func errorsAreCodeAndMessageLines() async {
        #expect(await table("{ Lists { title } Items { size } }") == """
            error: schemaViolation: 1:11: Cannot query field "title" on type "Lists". Lists has no field 'title'; add it with: schema add-field Lists title <TYPE>
            error: schemaViolation: 1:27: Cannot query field "size" on type "Items". Items has no field 'size'; add it with: schema add-field Items size <TYPE>

            """)
    }
}
