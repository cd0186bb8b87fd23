import RecordKit
import RecordQL
import TestSupport
import Testing

@testable import ShopCLI

/// Snapshots of the tables the REPL prints for GraphQL responses.
@Suite("Responses as tables")
struct ResponseTableTests {
    let engine: RecordQLEngine

    init() async throws {
        let database = try RecordDatabase.inMemory(bootstrap: .shopping)
        try database.addField(FieldDefinition("number", .int64, flags: [.queryable, .sortable]), to: "Items")
        engine = RecordQLEngine(database: database)
        let created = await engine.execute(
            """
            mutation {
              createLists(recordName: "L1", fields: {name: "Groceries"}) { recordName }
              party: createLists(recordName: "L2", fields: {name: "Party"}) { recordName }
              a: createItems(recordName: "I1", fields: {name: "Milk", number: 2, list: {recordName: "L1"}}) { recordName }
              b: createItems(recordName: "I2", fields: {name: "Bread", list: {recordName: "L1"}}) { recordName }
              c: createItems(recordName: "I3", fields: {name: "Eggs", number: 12, list: {recordName: "L1"}}) { recordName }
            }
            """)
        try #require(created.isSuccess, "\(created.json)")
    }

    private func table(_ document: String) async -> String {
        ResponseTable.render(await engine.execute(document))
    }

    @Test func aListOfRecordsIsATableInSelectionOrder() async {
        #expect(
            await table("{ Items(sort: [{name: ASC}]) { name number list { name } } }") == """
                name   number  list.name
                -----  ------  ---------
                Bread          Groceries
                Eggs       12  Groceries
                Milk        2  Groceries

                """)
    }

    @Test func nestedListsOfRecordsKeepEveryFieldOneLinePerRecord() async {
        #expect(
            await table("{ Lists(sort: [{name: ASC}]) { name Items(sort: [{name: ASC}]) { name number } } }") == """
                name       Items.name  Items.number
                ---------  ----------  ------------
                Groceries  Bread
                           Eggs                  12
                           Milk                   2
                Party

                """)
    }

    @Test func aNestedListWithNoRecordsStillShowsItsColumn() async {
        #expect(
            await table("{ Lists(where: {name: {eq: \"Party\"}}) { id: recordName Items { recordName } } }") == """
                id  Items
                --  -----
                L2

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
        #expect(
            await table(#"mutation { updateItems(recordName: "I2", fields: {number: 1}) { name number } }"#) == """
                name   number
                -----  ------
                Bread       1

                """)
        #expect(
            await table("{ __typename Lists(where: {name: {eq: \"Groceries\"}}) { name } }") == """
                __typename:
                Query

                Lists:
                name
                ---------
                Groceries

                """)
    }

    @Test func errorsAreCodeAndMessageLines() async {
        #expect(
            await table("{ Lists { title } Items { size } }") == """
                error: schemaViolation: 1:11: Cannot query field "title" on type "Lists". Lists has no field 'title'; add it with: schema add-field Lists title <TYPE>
                error: schemaViolation: 1:27: Cannot query field "size" on type "Items". Items has no field 'size'; add it with: schema add-field Items size <TYPE>

                """)
    }
}

/// Nested selections as `shop` prints them after the groceries story, snapshotted.
@Suite struct NestedTableSnapshotTests {
    @Test func nestedSelectionsKeepEveryFieldInTheTable() async throws {
        let sandbox = Sandbox()
        let story = await shop(["--db", sandbox.database, "-f", StoryTests.script])
        try #require(story.status == 0, "\(story.errors)")
        let run = await shop([
            "--db", sandbox.database, "-e", "list add Party", "-e",
            """
            { Lists(sort: [{name: ASC}]) { name Items(sort: [{name: ASC}]) { name number list { name } } } \
            Items(sort: [{name: DESC}], limit: 2) { name list { name Items(sort: [{name: ASC}]) { name } } } }
            """,
        ])
        #expect(run.status == 0, "\(run.errors)")
        try Snapshot.check(run.output, named: "nested-tables")
    }
}
