import Foundation
import GraphQL
import RecordKit
import Testing

@testable import RecordQL

@Suite("Translating mutation arguments into record operations")
struct MutationArgumentsTests {
    /// The operations `document` makes the catalog schema apply.
    func operations(_ document: String) async throws -> [RecordOperation] {
        let resolver = CapturingResolver()
        let result = try await graphql(schema: RecordQLSchema(try TestSchemas.catalog(), resolver: resolver).graphQLSchema, request: document)
        #expect(result.errors.isEmpty, "\(result.errors)")
        return resolver.operations
    }

    @Test func createTakesEveryFieldType() async throws {
        let operations = try await operations(
            """
            mutation {
              createItems(recordName: "I1", fields: {
                name: "Milk", list: {recordName: "L1", action: DELETE_SELF}, number: 9223372036854775807, price: 2,
                due: "2026-11-21", photo: "AQID", place: {latitude: 52.5, longitude: 13.4}, manual: "aGVsbG8=",
                tags: ["dairy"], related: [{recordName: "I2"}], owner: {recordName: "L2"}
              }) { recordName }
            }
            """)
        #expect(
            operations == [
                .create(
                    Record(
                        "Items", recordName: "I1",
                        fields: [
                            "name": .string("Milk"),
                            "list": .reference(Reference("L1", action: .deleteSelf)),
                            "number": .int64(.max),
                            "price": .double(2),
                            "due": .timestamp(Timestamp.parse("2026-11-21") ?? Date()),
                            "photo": .bytes(Data([1, 2, 3])),
                            "place": .location(RecordKit.Location(latitude: 52.5, longitude: 13.4)),
                            "manual": .asset(Asset(content: Data("hello".utf8))),
                            "tags": .list([.string("dairy")]),
                            "related": .list([.reference(Reference("I2"))]),
                            "owner": .reference(Reference("L2")),
                        ]))
            ])
    }

    @Test func createWithoutARecordNameGetsAUUID() async throws {
        let operations = try await operations(#"mutation { createLists(fields: {name: "Groceries"}) { recordName } }"#)
        guard case .create(let record)? = operations.first else {
            Issue.record("expected a create, got \(operations)")
            return
        }
        #expect(UUID(uuidString: record.recordName) != nil)
        #expect(record.fields == ["name": .string("Groceries")])
    }

    @Test func updateChangesTheGivenFieldsAndNullRemovesOne() async throws {
        let operations = try await operations(#"mutation { updateItems(recordName: "I1", ifChangeTag: "t1", fields: {number: 3, name: null}) { recordName } }"#)
        #expect(operations == [.update(recordType: "Items", recordName: "I1", fields: ["number": .int64(3), "name": nil], ifChangeTag: "t1")])
    }

    @Test func operationsFromArgumentsTheExecutionCoerced() throws {
        let generated = try RecordQLSchema(try TestSchemas.catalog())
        #expect(try generated.operation(.delete(recordType: "Items"), arguments: jsonInput(#"{"recordName": "I1"}"#)) == .delete(recordName: "I1"))
        #expect(
            try generated.operation(.update(recordType: "Lists"), arguments: jsonInput(#"{"recordName": "L1", "fields": {"name": "New"}}"#))
                == .update(recordType: "Lists", recordName: "L1", fields: ["name": .string("New")], ifChangeTag: nil))
    }

    @Test func fieldInputsUseGraphQLNamesAndNullRemoves() throws {
        let schema = try ckdbSchema("RECORD TYPE Notes (changeTag STRING, title STRING);")
        let translator = try RecordQLSchema(schema).fieldInputTranslator(for: "Notes")
        let expected: [String: RecordKit.Value?] = ["changeTag": .string("mine"), "title": nil]
        #expect(try translator.values(from: jsonInput(#"{"changeTag_": "mine", "title": null}"#)) == expected)
    }

    @Test(arguments: [
        (#"{"fields": {"nope": 1}}"#, "ItemsInput.nope: ItemsInput has no field 'nope'"),
        (#"{"fields": {"tags": ["a", null]}}"#, "ItemsInput.tags[1]: list elements cannot be null"),
        (#"{"fields": {"list": {"action": "NONE"}}}"#, "ItemsInput.list: a reference needs recordName"),
        (#"{"fields": {"list": {"recordName": "L1", "action": "LATER"}}}"#, "a reference action is NONE or DELETE_SELF, not 'LATER'"),
        (#"{"fields": {"list": "L1"}}"#, #"ItemsInput.list: expected a reference {recordName: ID!, action: NONE | DELETE_SELF}, got string "L1""#),
        (#"{"fields": {"place": {"latitude": 1}}}"#, "ItemsInput.place: a location needs longitude"),
        (#"{"fields": {"place": [52.5, 13.4]}}"#, "ItemsInput.place: expected a location {latitude: Float!, longitude: Float!, …}, got array [52.5,13.4]"),
        (#"{"fields": {"photo": "%%%"}}"#, "ItemsInput.photo: Bytes cannot represent '%%%': it is not base64"),
        (#"{"fields": {"number": 1.5}}"#, "ItemsInput.number: Int64 cannot represent 1.5"),
    ])
    func badInputsFailWithAClearMessage(_ arguments: String, _ message: String) throws {
        let generated = try RecordQLSchema(try TestSchemas.catalog())
        let error = try #require(throws: RecordError.self) { try generated.operation(.create(recordType: "Items"), arguments: jsonInput(arguments)) }
        #expect(error.code == .invalidArguments)
        #expect(error.message.contains(message), "\(error.message)")
    }
}
