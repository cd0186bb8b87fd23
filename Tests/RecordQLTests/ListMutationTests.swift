import GraphQL
import RecordKit
import Testing

@testable import RecordQL

/// `createManyT`, `updateManyT` and `deleteManyT`: a batch in one variable, one transaction.
@Suite("Mutations in list form")
struct ListMutationTests {
    private static func item(_ recordName: String, _ name: String, list: String = "L1") -> Map {
        ["recordName": .string(recordName), "fields": ["name": .string(name), "list": ["recordName": .string(list), "action": "DELETE_SELF"]]]
    }

    private static let create = "mutation($records: [ItemsCreate!]!) { createManyItems(records: $records) { recordName name list { name } } }"

    @Test func createManyCreatesEveryRecordInOrder() async throws {
        let shop = try EngineFixture()
        await shop.createList("L1", "Groceries", items: [])
        let json = await shop.data(Self.create, variables: ["records": [Self.item("I2", "Milk"), Self.item("I1", "Bread")]])
        #expect(
            json
                == #"{"data":{"createManyItems":[{"recordName":"I2","name":"Milk","list":{"name":"Groceries"}},{"recordName":"I1","name":"Bread","list":{"name":"Groceries"}}]}}"#
        )
        #expect(await shop.data("{ Items(sort: [{name: ASC}]) { name } }") == #"{"data":{"Items":[{"name":"Bread"},{"name":"Milk"}]}}"#)
    }

    @Test func aBadRecordInTheListLeavesNothingAppliedAndIsNamedByItsIndex() async throws {
        let shop = try EngineFixture()
        await shop.createList("L1", "Groceries", items: [])
        let response = await shop.run(
            Self.create, variables: ["records": [Self.item("I1", "Milk"), Self.item("I2", "Stray", list: "L9"), Self.item("I3", "Tea")]])
        #expect(response.errors.map(\.code) == [.referenceViolation])
        #expect(response.errors.first?.path == [.key("createManyItems"), .index(1)])
        #expect(await shop.data("{ Items { name } }") == #"{"data":{"Items":[]}}"#)

        let invalid = await shop.run(Self.create, variables: ["records": [Self.item("I1", "Milk"), ["recordName": "I2", "fields": ["name": 5]]]])
        #expect(invalid.errors.map(\.code) == [.invalidArguments], "\(invalid.json)")
        #expect(invalid.errors.first?.message.contains("$records at [1].fields.name") == true, "\(invalid.json)")
    }

    /// One mutation is one batch: a record may reference one its later fields create.
    @Test func aMutationMaySaveAReferenceBeforeItsTarget() async throws {
        let shop = try EngineFixture()
        let document =
            #"mutation { i: createItems(recordName: "I1", fields: {name: "Milk", list: {recordName: "L1", action: DELETE_SELF}}) { name } l: createLists(recordName: "L1", fields: {name: "Groceries"}) { name } }"#
        #expect(await shop.run(document).errors.isEmpty)
        #expect(await shop.data("{ Lists { name Items { name } } }") == #"{"data":{"Lists":[{"name":"Groceries","Items":[{"name":"Milk"}]}]}}"#)
    }

    /// A name given twice in one batch is said to be given twice, not to exist already.
    @Test func aNameCreatedTwiceInOneBatchIsSaidSo() async throws {
        let shop = try EngineFixture()
        await shop.createList("L1", "Groceries", items: [])
        let response = await shop.run(Self.create, variables: ["records": [Self.item("I1", "Milk"), Self.item("I1", "Tea")]])
        #expect(response.errors.map(\.code) == [.invalidArguments], "\(response.json)")
        #expect(response.errors.first?.message.contains("creates a record named 'I1' twice") == true, "\(response.json)")
        #expect(response.errors.first?.path == [.key("createManyItems"), .index(1)])
    }

    @Test func updateManyChangesEachRecordAndHonoursChangeTags() async throws {
        let shop = try EngineFixture()
        await shop.createList("L1", "Groceries", items: [("I1", "Milk"), ("I2", "Bread")])
        let tag = try #require(try shop.database.fetch(recordName: "I1")?.changeTag)
        let update = "mutation($records: [ItemsUpdate!]!) { updateManyItems(records: $records) { name } }"
        let records: Map = [
            ["recordName": "I1", "ifChangeTag": .string(tag), "fields": ["name": "Oat milk"]], ["recordName": "I2", "fields": ["name": "Rye"]],
        ]
        #expect(await shop.data(update, variables: ["records": records]) == #"{"data":{"updateManyItems":[{"name":"Oat milk"},{"name":"Rye"}]}}"#)
        let stale = await shop.run(
            update,
            variables: [
                "records": [["recordName": "I2", "fields": ["name": "Spelt"]], ["recordName": "I1", "ifChangeTag": .string(tag), "fields": ["name": "Soy"]]]
            ])
        #expect(stale.errors.map(\.code) == [.serverRecordChanged])
        #expect(stale.errors.first?.path == [.key("updateManyItems"), .index(1)])
        #expect(await shop.data("{ Items(sort: [{name: ASC}]) { name } }") == #"{"data":{"Items":[{"name":"Oat milk"},{"name":"Rye"}]}}"#)
    }

    @Test func deleteManyListsEveryRecordRemovedCascadesIncluded() async throws {
        let shop = try EngineFixture()
        await shop.createList("L1", "Groceries", items: [("I1", "Milk")])
        await shop.createList("L2", "Hardware", items: [("I2", "Nails")])
        await shop.createList("L3", "Books", items: [])
        let delete = "mutation($names: [ID!]!) { deleteManyLists(recordNames: $names) { deleted } }"
        let unknown = await shop.run(delete, variables: ["names": ["L1", "I2"]])
        #expect(unknown.errors.map(\.code) == [.unknownItem], "I2 is an item, not a list")
        #expect(try shop.database.fetch(recordName: "L1") != nil)

        let json = await shop.data(delete, variables: ["names": ["L1", "L2", "L1"]])
        let deleted = JSONValue(parsing: json)?["data"]?["deleteManyLists"]?["deleted"]
        guard case .array(let names)? = deleted else {
            Issue.record("no deleted list in \(json)")
            return
        }
        #expect(Set(names.compactMap { if case .string(let name) = $0 { name } else { nil } }) == ["L1", "I1", "L2", "I2"])
        #expect(names.count == 4)
        #expect(await shop.data("{ Lists { recordName } }") == #"{"data":{"Lists":[{"recordName":"L3"}]}}"#)
    }

    @Test func aTransactionIDMakesAListRetrySafe() async throws {
        let shop = try EngineFixture()
        await shop.createList("L1", "Groceries", items: [])
        let document = "mutation($records: [ItemsCreate!]!) @transaction(id: \"B1\") { createManyItems(records: $records) { recordName } }"
        let records: Map = [["fields": ["name": "Milk"]], ["fields": ["name": "Tea"]]]
        let first = await shop.run(document, variables: ["records": records])
        #expect(first.isSuccess, "\(first.json)")
        let retry = await shop.run(document, variables: ["records": records])
        #expect(retry.json == first.json)
        #expect(retry.isReplay)
        #expect(try shop.database.records(matching: Query("Items")).count == 2)
    }

    @Test func literalListsWorkAsVariablesDo() async throws {
        let shop = try EngineFixture()
        await shop.createList("L1", "Groceries", items: [])
        let json = await shop.data(
            #"mutation { createManyItems(records: [{recordName: "I1", fields: {name: "Milk"}}, {recordName: "I2", fields: {name: "Tea"}}]) { recordName } }"#)
        #expect(json == #"{"data":{"createManyItems":[{"recordName":"I1"},{"recordName":"I2"}]}}"#)
        #expect(
            await shop.data(#"mutation { deleteManyItems(recordNames: ["I1", "I2"]) { deleted } }"#) == #"{"data":{"deleteManyItems":{"deleted":["I1","I2"]}}}"#
        )
    }
}
