import GraphQL
import RecordKit
import TestSupport
import Testing

@testable import RecordQL

@Suite("The schema generated for the shopping lists")
struct ShoppingSchemaTests {
    let generated: RecordQLSchema

    init() throws {
        generated = try RecordQLSchema(try Schema.shopping)
    }

    @Test func queryListsRecordsOfEachTypeWithFilterSortAndLimit() throws {
        #expect(try generated.outputField("Query", "Items") == "[Items!]!")
        #expect(
            try generated.arguments("Query", "Items") == [
                "where": "ItemsFilter", "predicate": "String", "sort": "[ItemsSort!]", "limit": "Int",
            ])
        #expect(try generated.outputField("Query", "Lists") == "[Lists!]!")
    }

    @Test func queryPagesRecordsWithACursor() throws {
        #expect(try generated.outputField("Query", "ItemsPage") == "ItemsPage!")
        #expect(
            try generated.arguments("Query", "ItemsPage") == [
                "where": "ItemsFilter", "predicate": "String", "sort": "[ItemsSort!]", "limit": "Int", "after": "String",
            ])
        #expect(try generated.outputFields("ItemsPage") == ["records", "cursor"])
        #expect(try generated.outputField("ItemsPage", "records") == "[Items!]!")
        #expect(try generated.outputField("ItemsPage", "cursor") == "String")
    }

    @Test func queryReadsAssetContent() throws {
        #expect(try generated.outputField("Query", "asset") == "Bytes")
        #expect(try generated.arguments("Query", "asset") == ["sha256": "String!"])
    }

    @Test func objectTypesImplementRecordAndStartWithTheSystemFields() throws {
        let system = ["recordName", "recordType", "createdAt", "modifiedAt", "changeTag"]
        #expect(try generated.outputFields("Record") == system)
        #expect(try generated.outputFields("Items") == system + ["name", "list"])
        #expect(try generated.outputFields("Lists") == system + ["name", "Items", "ItemsAggregate"])
        for (field, type) in [
            ("recordName", "ID!"), ("recordType", "String!"), ("createdAt", "Timestamp!"), ("modifiedAt", "Timestamp!"), ("changeTag", "String!"),
        ] {
            #expect(try generated.outputField("Record", field) == type)
            #expect(try generated.outputField("Items", field) == type)
        }
        let items = try #require(generated.graphQLSchema.getType(name: "Items") as? GraphQLObjectType)
        #expect(try items.interfaces().map(\.name) == ["Record"])
    }

    @Test func aTypedReferenceResolvesToTheReferencedObject() throws {
        #expect(try generated.outputField("Items", "name") == "String")
        #expect(try generated.outputField("Items", "list") == "Lists")
    }

    @Test func listsHaveTheirItemsAsReferrers() throws {
        #expect(try generated.outputField("Lists", "Items") == "[Items!]!")
        #expect(
            try generated.arguments("Lists", "Items") == [
                "where": "ItemsFilter", "predicate": "String", "sort": "[ItemsSort!]", "limit": "Int",
            ])
        #expect(generated.names.objectField("Items", ofObjectType: "Lists") == .referrers(recordType: "Items", field: "list"))
    }

    @Test func mutationsCreateUpdateAndDelete() throws {
        #expect(
            try generated.outputFields("Mutation") == [
                "createItems", "updateItems", "deleteItems", "createManyItems", "updateManyItems", "deleteManyItems",
                "createLists", "updateLists", "deleteLists", "createManyLists", "updateManyLists", "deleteManyLists",
                "requireUnchanged",
            ])
        #expect(try generated.outputField("Mutation", "requireUnchanged") == "[ID!]!")
        #expect(try generated.arguments("Mutation", "requireUnchanged") == ["records": "[RecordVersionInput!]!"])
        #expect(try generated.inputFields("RecordVersionInput") == ["recordName": "ID!", "changeTag": "String!"])
        #expect(try generated.outputField("Mutation", "createItems") == "Items!")
        #expect(try generated.arguments("Mutation", "createItems") == ["recordName": "ID", "fields": "ItemsInput!"])
        #expect(try generated.outputField("Mutation", "updateItems") == "Items!")
        #expect(try generated.arguments("Mutation", "updateItems") == ["recordName": "ID!", "ifChangeTag": "String", "fields": "ItemsInput!"])
        #expect(try generated.outputField("Mutation", "deleteItems") == "DeleteResult!")
        #expect(try generated.arguments("Mutation", "deleteItems") == ["recordName": "ID!"])
        #expect(try generated.outputField("DeleteResult", "deleted") == "[ID!]!")
    }

    @Test func listFormsTakeTheArgumentsOfEachRecord() throws {
        #expect(try generated.outputField("Mutation", "createManyItems") == "[Items!]!")
        #expect(try generated.arguments("Mutation", "createManyItems") == ["records": "[ItemsCreate!]!"])
        #expect(try generated.inputFields("ItemsCreate") == ["recordName": "ID", "fields": "ItemsInput!"])
        #expect(try generated.arguments("Mutation", "updateManyItems") == ["records": "[ItemsUpdate!]!"])
        #expect(try generated.inputFields("ItemsUpdate") == ["recordName": "ID!", "ifChangeTag": "String", "fields": "ItemsInput!"])
        #expect(try generated.outputField("Mutation", "deleteManyItems") == "DeleteResult!")
        #expect(try generated.arguments("Mutation", "deleteManyItems") == ["recordNames": "[ID!]!"])
    }

    @Test func inputsTakeReferencesWithTheirAction() throws {
        #expect(try generated.inputFields("ItemsInput") == ["name": "String", "list": "ReferenceInput"])
        #expect(try generated.inputFields("ReferenceInput") == ["recordName": "ID!", "action": "ReferenceAction"])
        let actions = try #require(generated.graphQLSchema.getType(name: "ReferenceAction") as? GraphQLEnumType)
        #expect(actions.values.map(\.name) == ["NONE", "DELETE_SELF"])
        #expect(generated.sdl.contains("action: ReferenceAction = NONE"))
    }

    @Test func filtersHaveSystemKeysFieldOperatorsAndLogic() throws {
        #expect(
            try generated.inputFields("ItemsFilter") == [
                "recordName": "RecordNameFilter", "createdAt": "TimestampFilter", "modifiedAt": "TimestampFilter",
                "name": "StringFilter", "list": "ReferenceFilter",
                "AND": "[ItemsFilter!]", "OR": "[ItemsFilter!]", "NOT": "ItemsFilter",
            ])
        #expect(try generated.inputFields("ListsFilter")["search"] == "String", "Lists.name is SEARCHABLE")
    }

    @Test func sortsHaveOneDirectionPerOrderedKey() throws {
        #expect(
            try generated.inputFields("ItemsSort") == [
                "recordName": "SortDirection", "createdAt": "SortDirection", "modifiedAt": "SortDirection",
                "name": "SortDirection", "list": "SortDirection",
            ])
        let directions = try #require(generated.graphQLSchema.getType(name: "SortDirection") as? GraphQLEnumType)
        #expect(directions.values.map(\.name) == ["ASC", "DESC"])
    }

    @Test func mutationsMayCarryATransactionID() throws {
        let directive = try #require(generated.graphQLSchema.getDirective(name: "transaction"))
        #expect(directive.locations == [.mutation])
        #expect(directive.args.map(\.name) == ["id"])
        #expect(directive.args.first?.type.debugDescription == "String!")
        #expect(generated.sdl.contains("directive @transaction(id: String!) on MUTATION"))
    }

    @Test func addingNumberToItemsAddsItEverywhere() throws {
        let evolved = try RecordQLSchema(try TestSchemas.shoppingWithNumber())
        #expect(try evolved.outputField("Items", "number") == "Int64")
        #expect(try evolved.inputFields("ItemsFilter")["number"] == "Int64Filter")
        #expect(try evolved.inputFields("ItemsSort")["number"] == "SortDirection")
        #expect(try evolved.inputFields("ItemsInput")["number"] == "Int64")
        #expect(
            try evolved.inputFields("Int64Filter") == [
                "eq": "Int64", "ne": "Int64", "lt": "Int64", "lte": "Int64", "gt": "Int64", "gte": "Int64", "in": "[Int64!]", "isNull": "Boolean",
            ])
        #expect(!generated.hasType("Int64Filter"), "the bootstrap schema has no INT64 field")
    }

    @Test func generatingNeedsNoResolvers() throws {
        let query = try #require(generated.graphQLSchema.queryType)
        #expect(try query.fields().values.allSatisfy { $0.resolve == nil })
        let items = try #require(generated.graphQLSchema.getType(name: "Items") as? GraphQLObjectType)
        #expect(try items.fields().values.allSatisfy { $0.resolve == nil })
    }
}
