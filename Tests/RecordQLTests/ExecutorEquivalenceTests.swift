import Foundation
import GraphQL
import RecordKit
import Testing

@testable import RecordQL

/// The compiled executor (SQL builds the JSON) and GraphQLSwift's own executor over resolvers
/// that call the engine (the reference, kept only here) answer every query of a table with the
/// same JSON: same keys in the same order, same values.
@Suite("Compiled execution matches GraphQLSwift's executor")
struct ExecutorEquivalenceTests {
    static let schemaText = """
        DEFINE SCHEMA
            RECORD TYPE Lists (
                name     STRING QUERYABLE SORTABLE SEARCHABLE
            );
            RECORD TYPE Items (
                name     STRING QUERYABLE SORTABLE,
                list     REFERENCE QUERYABLE, // references Lists
                number   INT64 QUERYABLE SORTABLE,
                price    DOUBLE QUERYABLE SORTABLE,
                due      TIMESTAMP QUERYABLE SORTABLE,
                tags     LIST<STRING> QUERYABLE,
                code     BYTES,
                place    LOCATION,
                photo    ASSET
            );
            RECORD TYPE Notes (
                text     STRING,
                about    REFERENCE QUERYABLE,
                links    LIST<REFERENCE>
            );
        """

    static let queries: [(name: String, document: String, variables: [String: Map])] = [
        ("system and scalar fields", "{ Items(sort: [{name: ASC}]) { recordName recordType name number price tags code } }", [:]),
        ("timestamps", "{ Items(where: {due: {isNull: false}}, sort: [{due: DESC}]) { name due } }", [:]),
        ("aliases", "{ first: Items(limit: 2, sort: [{name: ASC}]) { n: name q: number } last: Items(limit: 1, sort: [{name: DESC}]) { n: name } }", [:]),
        (
            "named fragments",
            "query { Items(sort: [{name: ASC}]) { ...itemBits list { ...listBits } } } fragment itemBits on Items { name number } fragment listBits on Lists { name }",
            [:]
        ),
        ("inline fragments and __typename", "{ Items(limit: 3, sort: [{name: ASC}]) { __typename ... on Items { name } list { __typename name } } }", [:]),
        (
            "variables", "query($list: ID!, $n: Int64) { Items(where: {list: {eq: $list}, number: {gte: $n}}, sort: [{name: ASC}]) { name number } }",
            ["list": .string("L1"), "n": .number(2)]
        ),
        (
            "@include and @skip", "query($yes: Boolean!) { Items(limit: 2, sort: [{name: ASC}]) { name number @include(if: $yes) price @skip(if: $yes) } }",
            ["yes": .bool(true)]
        ),
        ("predicate argument", #"{ Items(predicate: "list == 'L1' AND number >= 2", sort: [{number: DESC}, {name: ASC}]) { name number } }"#, [:]),
        (
            "where with OR, NOT, IN, BEGINSWITH[c], CONTAINS on lists",
            #"{ Items(where: {OR: [{name: {beginsWith: "b", caseInsensitive: true}}, {tags: {contains: "dairy"}}], NOT: {number: {in: [7, 8]}}}, sort: [{name: ASC}]) { name } }"#,
            [:]
        ),
        (
            "forward references resolve, dangling ones are null",
            "{ Notes(sort: [{recordName: ASC}]) { text about { recordName __typename ... on Lists { name } ... on Items { name number } } } }", [:]
        ),
        ("reference lists", "{ Notes(sort: [{recordName: ASC}]) { links { recordName ... on Items { name } } } }", [:]),
        (
            "referrers with their own arguments",
            "{ Lists(sort: [{name: ASC}]) { name Items(sort: [{name: DESC}], limit: 2) { name } cheap: Items(where: {price: {lt: 2}}) { name price } } }", [:]
        ),
        ("nested both ways", "{ Items(limit: 2, sort: [{name: ASC}]) { name list { name Items(sort: [{name: ASC}]) { name list { name } } } } }", [:]),
        (
            "locations and assets",
            "{ Items(where: {place: {isNull: false}}, sort: [{name: ASC}]) { name place { latitude longitude } photo { size sha256 } } }", [:]
        ),
        ("distance", "{ Items(where: {place: {distance: {from: {latitude: 48.85, longitude: 2.35}, lt: 10}}}, sort: [{name: ASC}]) { name } }", [:]),
        ("full-text search", #"{ Lists(where: {search: "groceries"}) { name } }"#, [:]),
        ("pages", "{ ItemsPage(limit: 2, sort: [{name: ASC}]) { records { name } cursor } }", [:]),
        ("empty results", #"{ Items(where: {name: {eq: "nothing"}}) { name } }"#, [:]),
    ]

    static func database() throws -> RecordDatabase {
        let db = try RecordDatabase.inMemory(bootstrap: try CKDBParser.parse(schemaText))
        let day = 86_400.0
        func item(
            _ id: String, _ name: String, list: String, number: Int64?, price: Double, due: Double?, tags: [String], place: RecordKit.Location?
        ) -> RecordOperation {
            var fields: [String: RecordKit.Value] = [
                "name": .string(name), "list": .reference(Reference(list, action: .deleteSelf)), "price": .double(price),
                "tags": .list(tags.map(RecordKit.Value.string)), "code": .bytes(Data(name.utf8.prefix(3))),
            ]
            fields["number"] = number.map(RecordKit.Value.int64)
            fields["due"] = due.map { RecordKit.Value.timestamp(Date(timeIntervalSince1970: 1_700_000_000 + $0 * day)) }
            fields["place"] = place.map(RecordKit.Value.location)
            if name == "Milk" { fields["photo"] = RecordKit.Value.asset(Asset(content: Data("a photo".utf8))) }
            return .create(Record("Items", recordName: id, fields: fields))
        }
        try db.modify([
            .create(Record("Lists", recordName: "L1", fields: ["name": .string("Weekly groceries")])),
            .create(Record("Lists", recordName: "L2", fields: ["name": .string("Hardware")])),
            item(
                "I1", "Milk", list: "L1", number: 2, price: 1.25, due: 1, tags: ["dairy", "fresh"], place: RecordKit.Location(latitude: 48.86, longitude: 2.35)),
            item("I2", "bread", list: "L1", number: nil, price: 2.5, due: nil, tags: [], place: nil),
            item("I3", "Butter", list: "L1", number: 7, price: 3.1, due: 3.5, tags: ["dairy"], place: RecordKit.Location(latitude: 51.5, longitude: -0.12)),
            item("I4", "Apples", list: "L1", number: 6, price: 0.1, due: 2, tags: ["fruit"], place: nil),
            item("I5", "Nails", list: "L2", number: 100, price: 4, due: nil, tags: [], place: RecordKit.Location(latitude: 48.85, longitude: 2.34)),
            .create(
                Record(
                    "Notes", recordName: "N1",
                    fields: [
                        "text": .string("about a list"), "about": .reference(Reference("L1")),
                        "links": .list([.reference(Reference("I1")), .reference(Reference("L2"))]),
                    ])),
            .create(Record("Notes", recordName: "N2", fields: ["text": .string("about an item"), "about": .reference(Reference("I3"))])),
            .create(Record("Notes", recordName: "N3", fields: ["text": .string("dangling"), "about": .reference(Reference("gone"))])),
        ])
        return db
    }

    @Test(arguments: queries.map(\.name))
    func bothExecutorsAnswerTheSame(name: String) async throws {
        let entry = try #require(Self.queries.first { $0.name == name })
        let db = try Self.database()
        let compiled = await RecordQLEngine(database: db).execute(entry.document, variables: entry.variables)
        #expect(compiled.isSuccess, "\(compiled.json)")

        let reference = try RecordQLSchema(db.schema, resolver: DatabaseResolver(database: db)).graphQLSchema
        let result = try await graphql(schema: reference, request: entry.document, variableValues: entry.variables)
        #expect(result.errors.isEmpty, "\(result.errors)")
        let referenceJSON = String(decoding: try GraphQLJSONEncoder().encode(result), as: UTF8.self)

        let left = try #require(JSONValue(parsing: compiled.json)).normalizingNumbers
        let right = try #require(JSONValue(parsing: referenceJSON)).normalizingNumbers
        #expect(left == right, "compiled: \(compiled.json)\nreference: \(referenceJSON)")
        #expect(left["data"] != nil && left["data"] != .null)
    }

    /// Guards the comparison itself: a difference in one value is seen.
    @Test func aDifferenceIsDetected() throws {
        let one = try #require(JSONValue(parsing: #"{"a":[{"b":1.0,"c":"x"}]}"#)).normalizingNumbers
        #expect(one == (try #require(JSONValue(parsing: #"{"a":[{"b":1,"c":"x"}]}"#)).normalizingNumbers))
        #expect(one != (try #require(JSONValue(parsing: #"{"a":[{"c":"x","b":1}]}"#)).normalizingNumbers), "key order counts")
        #expect(one != (try #require(JSONValue(parsing: #"{"a":[{"b":2,"c":"x"}]}"#)).normalizingNumbers))
    }
}

extension JSONValue {
    /// The same value with every number written one way (`1`, `1.0` and `1e0` are one number;
    /// GraphQLSwift's encoder and SQLite spell numbers differently).
    var normalizingNumbers: JSONValue {
        switch self {
        case .number(let text): .number(Double(text).map { String($0) } ?? text)
        case .array(let values): .array(values.map(\.normalizingNumbers))
        case .object(let members): .object(members.map { Member(key: $0.key, value: $0.value.normalizingNumbers) })
        default: self
        }
    }
}
