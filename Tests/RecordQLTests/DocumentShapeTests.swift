import GraphQL
import RecordKit
import Testing

@testable import RecordQL

/// Documents that differ only in their literal values share one validation (``DocumentShape``),
/// and still answer, fail and locate their errors as each would alone.
@Suite("Documents sharing a shape")
struct DocumentShapeTests {
    /// A mutation creating `count` items of list L1, with values from `first` on.
    private static func batch(from first: Int, count: Int) -> String {
        let fields = (first..<(first + count)).map { index in
            "i\(index - first): createItems(recordName: \"I\(index)\", fields: {name: \"Item \(index)\", list: {recordName: \"L1\", action: DELETE_SELF}}) { recordName name }"
        }
        return "mutation {\n" + fields.joined(separator: "\n") + "\n}"
    }

    @Test func batchesWithNewValuesAreValidatedOnce() async throws {
        let shop = try EngineFixture()
        await shop.createList("L1", "Groceries", items: [])
        let validations = shop.engine.documents.validationCount
        for round in 0..<5 {
            let json = await shop.data(Self.batch(from: round * 10, count: 10))
            #expect(json.contains(#""i9":{"recordName":"I\#(round * 10 + 9)","name":"Item \#(round * 10 + 9)"}"#), "\(json)")
        }
        #expect(shop.engine.documents.validationCount == validations + 1)
        #expect(try shop.database.records(matching: Query("Items")).count == 50)
    }

    @Test func aSharedValidationAnswersAsAFreshOne() async throws {
        let documents = [
            #"{ Items(where: {name: {beginsWith: "B"}}, sort: [{name: ASC}], limit: 5) { name } }"#,
            #"{ Items(where: {name: {beginsWith: "M"}}, sort: [{name: ASC}], limit: 1) { name } }"#,
            #"{ Items(where: {name: {beginsWith: "Z"}}, sort: [{name: ASC}], limit: 9) { name } }"#,
        ]
        let shared = try EngineFixture()
        await shared.createList("L1", "Groceries", items: [("I1", "Milk"), ("I2", "Bread"), ("I3", "Butter"), ("I4", "Mustard")])
        for document in documents {
            let fresh = try EngineFixture()
            await fresh.createList("L1", "Groceries", items: [("I1", "Milk"), ("I2", "Bread"), ("I3", "Butter"), ("I4", "Mustard")])
            #expect(await shared.data(document) == fresh.data(document))
        }
        #expect(shared.engine.documents.validationCount == 1 + 1, "the lists' creation and the query shape")
    }

    @Test func aBadLiteralInASharedShapeIsLocatedInItsOwnText() async throws {
        let shop = try EngineFixture(bootstrap: try TestSchemas.shoppingWithNumber())
        await shop.createList("L1", "Groceries", items: [])
        _ = await shop.data(#"mutation { a: createItems(recordName: "I1", fields: {number: 1, name: "A"}) { number } }"#)
        let validations = shop.engine.documents.validationCount
        let text = "mutation {\n  a: createItems(recordName: \"I2\",\n    fields: {number: 99999999999999999999, name: \"B\"}) { number } }"
        let error = try await shop.error(text)
        #expect(error.code == .invalidArguments)
        #expect(error.locations == [GraphQLResponseError.Location(line: 3, column: 22)], "\(error)")
        #expect(shop.engine.documents.validationCount == validations, "the shape was validated with the first document")
        #expect(try shop.database.fetch(recordName: "I2") == nil)
    }

    @Test func aShapeFoundInvalidIsValidatedAgainForOtherValues() async throws {
        let shop = try EngineFixture()
        #expect(await shop.run(#"{ Lists(where: {createdAt: {gt: "yesterday"}}) { name } }"#).errors.map(\.code) == [.invalidArguments])
        #expect(await shop.data(#"{ Lists(where: {createdAt: {gt: "2024-01-01T00:00:00Z"}}) { name } }"#) == #"{"data":{"Lists":[]}}"#)
        #expect(shop.engine.documents.validationCount == 2)
    }

    @Test func variablesAndLiteralsMix() async throws {
        let shop = try EngineFixture()
        await shop.createList("L1", "Groceries", items: [])
        let document = { (name: String) in
            "mutation($list: ID!) { createItems(recordName: \"\(name)\", fields: {name: \"\(name)\", list: {recordName: $list, action: DELETE_SELF}}) { name list { name } } }"
        }
        for name in ["Milk", "Bread", "Tea"] {
            #expect(await shop.data(document(name), variables: ["list": "L1"]) == #"{"data":{"createItems":{"name":"\#(name)","list":{"name":"Groceries"}}}}"#)
        }
        #expect(shop.engine.documents.validationCount == 2, "the list's creation and the item shape")
        let missing = await shop.run(document("Jam"), variables: [:])
        #expect(missing.errors.map(\.code) == [.invalidArguments])
    }

    @Test func shapesKeepNamesBooleansAndEnums() throws {
        func shape(_ text: String) throws -> DocumentShape? {
            DocumentShape(of: try GraphQL.parse(source: Source(body: text)))
        }
        #expect(
            try shape(#"{ a: Items(limit: 1, where: {name: {eq: "x"}}) { name } }"#)
                == shape("{a:Items(limit:  7 where:{name:{eq:\"\"\"y\"\"\"}}){name} # note\n}"))
        #expect(try shape("{ a: Items(limit: 1) { name } }") != shape("{ b: Items(limit: 1) { name } }"))
        #expect(try shape("{ a: Items(limit: 1) { name } }") != shape("{ a: Items(limit: 1.5) { name } }"))
        #expect(try shape("{ a: Items(limit: 1) { name } }") != shape("{ a: Items(limit: null) { name } }"))
        #expect(try shape("{ Items(sort: [{name: ASC}]) { name @include(if: true) } }") != shape("{ Items(sort: [{name: DESC}]) { name @include(if: true) } }"))
        #expect(try shape("{ Items { name @include(if: true) } }") != shape("{ Items { name @include(if: false) } }"))
    }
}
