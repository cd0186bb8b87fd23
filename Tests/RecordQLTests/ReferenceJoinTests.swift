import RecordKit
import Testing

@testable import RecordQL

/// A typed REFERENCE is read through a join of the referenced type's table: it resolves to the
/// record, or to null when absent or dangling, at any depth, under referrers, in pages and in
/// what mutations return.
@Suite("References read through joins")
struct ReferenceJoinTests {
    static let schema = """
        DEFINE SCHEMA
            RECORD TYPE People (name STRING QUERYABLE SORTABLE);
            RECORD TYPE Lists (
                name    STRING QUERYABLE SORTABLE,
                owner   REFERENCE QUERYABLE // references People
            );
            RECORD TYPE Items (
                name    STRING QUERYABLE SORTABLE,
                list    REFERENCE QUERYABLE, // references Lists
                next    REFERENCE // references Items
            );
        """

    static let cases: [(name: String, document: String, response: String)] = [
        (
            "chains, absent and dangling references",
            "{ Items(sort: [{name: ASC}]) { name list { name owner { name } } next { name list { name } } } }",
            #"{"data":{"Items":[{"name":"Bread","list":{"name":"Groceries","owner":{"name":"Ada"}},"next":null},{"name":"Milk","list":{"name":"Groceries","owner":{"name":"Ada"}},"next":{"name":"Bread","list":{"name":"Groceries"}}},{"name":"Nails","list":{"name":"Hardware","owner":null},"next":null}]}}"#
        ),
        (
            "one reference under two aliases",
            #"{ Items(where: {name: {eq: "Milk"}}) { a: list { name } b: list { owner { name } recordName } } }"#,
            #"{"data":{"Items":[{"a":{"name":"Groceries"},"b":{"owner":{"name":"Ada"},"recordName":"L1"}}]}}"#
        ),
        (
            "under referrers",
            "{ Lists(sort: [{name: ASC}]) { name Items(sort: [{name: DESC}]) { name next { name } } } }",
            #"{"data":{"Lists":[{"name":"Groceries","Items":[{"name":"Milk","next":{"name":"Bread"}},{"name":"Bread","next":null}]},{"name":"Hardware","Items":[{"name":"Nails","next":null}]}]}}"#
        ),
        (
            "in a page",
            "{ ItemsPage(limit: 2, sort: [{name: DESC}]) { records { name list { owner { name } } } } }",
            #"{"data":{"ItemsPage":{"records":[{"name":"Nails","list":{"owner":null}},{"name":"Milk","list":{"owner":{"name":"Ada"}}}]}}}"#
        ),
        (
            "in what a mutation returns",
            #"mutation { updateItems(recordName: "I2", fields: {name: "Rye"}) { name list { name owner { name } } } }"#,
            #"{"data":{"updateItems":{"name":"Rye","list":{"name":"Groceries","owner":{"name":"Ada"}}}}}"#
        ),
    ]

    static func fixture() throws -> EngineFixture {
        let shop = try EngineFixture(bootstrap: try CKDBParser.parse(schema))
        try shop.database.modify([
            .create(Record("People", recordName: "P1", fields: ["name": .string("Ada")])),
            .create(Record("Lists", recordName: "L1", fields: ["name": .string("Groceries"), "owner": .reference(Reference("P1"))])),
            .create(Record("Lists", recordName: "L2", fields: ["name": .string("Hardware"), "owner": .reference(Reference("P9"))])),
            .create(Record("Items", recordName: "I2", fields: ["name": .string("Bread"), "list": .reference(Reference("L1"))])),
            .create(
                Record(
                    "Items", recordName: "I1",
                    fields: [
                        "name": .string("Milk"), "list": .reference(Reference("L1")), "next": .reference(Reference("I2")),
                    ])),
            .create(
                Record(
                    "Items", recordName: "I3",
                    fields: [
                        "name": .string("Nails"), "list": .reference(Reference("L2")), "next": .reference(Reference("I9")),
                    ])),
        ])
        return shop
    }

    @Test(arguments: cases.map(\.name))
    func typedReferencesResolve(name: String) async throws {
        let entry = try #require(Self.cases.first { $0.name == name })
        let shop = try Self.fixture()
        #expect(await shop.data(entry.document) == entry.response)
    }

    @Test func moreReferencesThanSQLiteJoinsInOneStatementStillResolve() async throws {
        let shop = try Self.fixture()
        let count = ProjectionBuilder.maximumMembersPerRecord
        let selection = (1...count).map { "r\($0): list { owner { name } }" }.joined(separator: " ")
        let response = await shop.run(#"{ Items(where: {name: {eq: "Milk"}}) { \#(selection) } }"#)
        #expect(response.isSuccess, "\(response.json.prefix(300))")
        #expect(response.json.components(separatedBy: #"{"owner":{"name":"Ada"}}"#).count - 1 == count)
    }

    @Test func aTypedReferenceIsAJoinNotASubqueryPerRecord() async throws {
        let shop = try Self.fixture()
        let explanation = try await shop.engine.explain("{ Items { list { owner { name } } } }")
        #expect(explanation.components(separatedBy: "LEFT JOIN").count == 3, "\(explanation)")
        #expect(!explanation.contains("CORRELATED SCALAR SUBQUERY"), "\(explanation)")
    }
}
