import RecordKit
import Testing

@testable import RecordQL

@Suite("Name clashes are resolved by renaming, deterministically")
struct NameCollisionTests {
    @Test func userFieldsNamedLikeSystemFieldsOrFilterKeysGetAnUnderscore() throws {
        let generated = try RecordQLSchema(
            try ckdbSchema(
                """
                RECORD TYPE Notes (
                    recordType      STRING,
                    recordType_     STRING,
                    changeTag       STRING,
                    createdAt       TIMESTAMP QUERYABLE SORTABLE,
                    search          STRING SEARCHABLE,
                    AND             INT64,
                    title           STRING
                );
                """
            ))
        let names = try #require(generated.names["Notes"])
        #expect(
            names.fields == [
                "recordType": "recordType__", "recordType_": "recordType_", "changeTag": "changeTag_",
                "createdAt": "createdAt_", "search": "search_", "AND": "AND_", "title": "title",
            ])
        #expect(
            try generated.outputFields("Notes") == [
                "recordName", "recordType", "createdAt", "modifiedAt", "changeTag",
                "recordType__", "recordType_", "changeTag_", "createdAt_", "search_", "AND_", "title",
            ])
        #expect(try generated.outputField("Notes", "createdAt") == "Timestamp!")
        #expect(try generated.outputField("Notes", "createdAt_") == "Timestamp")
        #expect(generated.names.objectField("createdAt_", ofObjectType: "Notes") == .field("createdAt"))
        #expect(generated.names.objectField("createdAt", ofObjectType: "Notes") == .createdAt)
        let filter = try generated.inputFields("NotesFilter")
        #expect(filter["search"] == "String" && filter["search_"] == "StringFilter" && filter["AND_"] == "Int64Filter")
        #expect(filter["createdAt"] == "TimestampFilter")
        #expect(filter["createdAt_"] == nil, "RecordKit reads the key createdAt as the system field")
        #expect(try generated.inputFields("NotesSort")["createdAt_"] == nil)
        #expect(try generated.inputFields("NotesInput")["createdAt_"] == "Timestamp")
        _ = try GraphQLCore.buildSchema(generated.sdl)
    }

    @Test func recordTypesNamedLikeSharedTypesGetAnUnderscore() throws {
        let generated = try RecordQLSchema(
            try ckdbSchema(
                """
                RECORD TYPE Query (name STRING);
                RECORD TYPE String (name STRING);
                RECORD TYPE Int64 (name STRING);
                RECORD TYPE Location (name STRING);
                RECORD TYPE Record (name STRING);
                RECORD TYPE StringFilter (name STRING);
                """
            ))
        for name in ["Query", "String", "Int64", "Location", "Record", "StringFilter"] {
            let names = try #require(generated.names[name])
            #expect(names.objectType == name + "_")
            #expect(names.filterType == name + "_Filter")
            #expect(names.listField == name + "_")
            #expect(names.createField == "create\(name)_")
            #expect(generated.names.recordType(ofObjectType: name + "_") == name)
            #expect(try generated.outputField("Query", name + "_") == "[\(name)_!]!")
        }
        #expect(generated.graphQLSchema.queryType?.name == "Query")
        #expect(try generated.outputField("Location", "latitude") == nil, "no LOCATION field: the shared Location type is unused")
        _ = try GraphQLCore.buildSchema(generated.sdl)
    }

    @Test func generatedNamesOfOneTypeGiveWayToRecordTypesOfThatName() throws {
        let generated = try RecordQLSchema(
            try ckdbSchema(
                """
                RECORD TYPE Items (name STRING);
                RECORD TYPE ItemsFilter (name STRING);
                RECORD TYPE ItemsPage (name STRING);
                RECORD TYPE asset (name STRING);
                """
            ))
        let items = try #require(generated.names["Items"])
        #expect(items.filterType == "ItemsFilter_")
        #expect(items.pageType == "ItemsPage_")
        #expect(items.pageField == "ItemsPage_")
        #expect(generated.names["ItemsFilter"]?.objectType == "ItemsFilter")
        #expect(generated.names["ItemsPage"]?.objectType == "ItemsPage")
        #expect(generated.names["ItemsPage"]?.pageField == "ItemsPagePage")
        #expect(generated.names["asset"]?.listField == "asset_")
        #expect(generated.names.queryField("asset") == .asset)
        #expect(generated.names.queryField("ItemsPage") == .list(recordType: "ItemsPage"))
        #expect(generated.names.queryField("ItemsPage_") == .page(recordType: "Items"))
        #expect(try generated.arguments("Query", "Items")["where"] == "ItemsFilter_")
        #expect(try generated.outputField("Query", "ItemsPage_") == "ItemsPage_!")
        _ = try GraphQLCore.buildSchema(generated.sdl)
    }

    @Test func referrersGiveWayToUserFields() throws {
        let generated = try RecordQLSchema(
            try ckdbSchema(
                """
                RECORD TYPE Items (list REFERENCE); // references Lists
                RECORD TYPE Lists (Items STRING);
                """
            ))
        #expect(try generated.outputField("Lists", "Items") == "String")
        #expect(try generated.outputField("Lists", "Items_") == "[Items!]!")
        #expect(generated.names.objectField("Items_", ofObjectType: "Lists") == .referrers(recordType: "Items", field: "list"))
    }

    @Test func namingIsDeterministic() throws {
        let schema = try TestSchemas.catalog()
        #expect(GraphQLNameMap(schema) == GraphQLNameMap(schema))
        #expect(try RecordQLSchema(schema).sdl == RecordQLSchema(schema).sdl)
    }

    @Test func namesGraphQLCannotHoldAreRefusedClearly() throws {
        let badType = try #require(throws: RecordError.self) { try RecordQLSchema(Schema(recordTypes: [RecordType("my items")])) }
        #expect(badType.code == .schemaViolation)
        #expect(badType.message == "record type 'my items' cannot be exposed in GraphQL: names start with a letter and contain only letters, digits and '_'")
        let badField = try #require(throws: RecordError.self) {
            try RecordQLSchema(Schema(recordTypes: [RecordType("Items", fields: [FieldDefinition("déjà", .string)])]))
        }
        #expect(badField.field == "déjà")
    }
}
