import RecordKit
import TestSupport
import Testing

@testable import RecordQL

@Suite("How each CloudKit field type appears in the generated schema")
struct FieldTypeMappingTests {
    /// A field of `Everything`: its output type, operator input in `EverythingFilter`, type in
    /// `EverythingInput`, and whether `EverythingSort` has it.
    struct Mapping: CustomTestStringConvertible, Sendable {
        var field: String
        var output: String
        var filter: String
        var input: String
        var sortable: Bool
        var testDescription: String { field }
    }

    static let mappings: [Mapping] = [
        Mapping(field: "text", output: "String", filter: "StringFilter", input: "String", sortable: true),
        Mapping(field: "count", output: "Int64", filter: "Int64Filter", input: "Int64", sortable: true),
        Mapping(field: "ratio", output: "Float", filter: "FloatFilter", input: "Float", sortable: true),
        Mapping(field: "amount", output: "Float", filter: "FloatFilter", input: "Float", sortable: true),
        Mapping(field: "whole", output: "Int64", filter: "Int64Filter", input: "Int64", sortable: true),
        Mapping(field: "fraction", output: "Float", filter: "FloatFilter", input: "Float", sortable: true),
        Mapping(field: "at", output: "Timestamp", filter: "TimestampFilter", input: "Timestamp", sortable: true),
        Mapping(field: "blob", output: "Bytes", filter: "BytesFilter", input: "Bytes", sortable: false),
        Mapping(field: "place", output: "Location", filter: "LocationFilter", input: "LocationInput", sortable: false),
        Mapping(field: "file", output: "Asset", filter: "PresenceFilter", input: "Bytes", sortable: false),
        Mapping(field: "owner", output: "Record", filter: "ReferenceFilter", input: "ReferenceInput", sortable: true),
        Mapping(field: "tags", output: "[String!]", filter: "StringListFilter", input: "[String!]", sortable: false),
        Mapping(field: "counts", output: "[Int64!]", filter: "Int64ListFilter", input: "[Int64!]", sortable: false),
        Mapping(field: "ratios", output: "[Float!]", filter: "FloatListFilter", input: "[Float!]", sortable: false),
        Mapping(field: "wholes", output: "[Int64!]", filter: "Int64ListFilter", input: "[Int64!]", sortable: false),
        Mapping(field: "times", output: "[Timestamp!]", filter: "TimestampListFilter", input: "[Timestamp!]", sortable: false),
        Mapping(field: "blobs", output: "[Bytes!]", filter: "BytesListFilter", input: "[Bytes!]", sortable: false),
        Mapping(field: "places", output: "[Location!]", filter: "PresenceFilter", input: "[LocationInput!]", sortable: false),
        Mapping(field: "files", output: "[Asset!]", filter: "PresenceFilter", input: "[Bytes!]", sortable: false),
        Mapping(field: "owners", output: "[Record]", filter: "ReferenceListFilter", input: "[ReferenceInput!]", sortable: false),
        Mapping(field: "secret", output: "String", filter: "StringFilter", input: "String", sortable: true),
    ]

    @Test(arguments: mappings)
    func fieldTypeMapsAsSpecified(_ mapping: Mapping) throws {
        let generated = try RecordQLSchema(try TestSchemas.everyFieldType())
        #expect(try generated.outputField("Everything", mapping.field) == mapping.output)
        #expect(try generated.inputFields("EverythingFilter")[mapping.field] == mapping.filter)
        #expect(try generated.inputFields("EverythingInput")[mapping.field] == mapping.input)
        #expect(try generated.inputFields("EverythingSort")[mapping.field] == (mapping.sortable ? "SortDirection" : nil))
    }

    @Test func locationAndAssetAreObjects() throws {
        let generated = try RecordQLSchema(try TestSchemas.everyFieldType())
        let measured = ["altitude", "horizontalAccuracy", "verticalAccuracy", "speed", "course", "timestamp"]
        #expect(try generated.outputFields("Location") == ["latitude", "longitude"] + measured)
        #expect(try generated.outputField("Location", "latitude") == "Float!")
        #expect(try generated.outputField("Location", "longitude") == "Float!")
        #expect(try generated.outputField("Location", "altitude") == "Float")
        #expect(try generated.outputField("Location", "timestamp") == "Timestamp")
        #expect(try generated.outputFields("Asset") == ["size", "sha256"])
        #expect(try generated.outputField("Asset", "size") == "Int64!")
        #expect(try generated.outputField("Asset", "sha256") == "String!")
        #expect(
            try generated.inputFields("LocationInput")
                == [
                    "latitude": "Float!", "longitude": "Float!", "altitude": "Float", "horizontalAccuracy": "Float", "verticalAccuracy": "Float",
                    "speed": "Float", "course": "Float", "timestamp": "Timestamp",
                ])
    }

    @Test func operatorInputsOfferWhatTheTypeSupports() throws {
        let generated = try RecordQLSchema(try TestSchemas.everyFieldType())
        let ordered = ["eq", "ne", "lt", "lte", "gt", "gte"]
        func operands(_ type: String, _ names: [String]) -> [String: String] {
            Dictionary(uniqueKeysWithValues: names.map { ($0, type) })
        }
        #expect(
            try generated.inputFields("StringFilter")
                == operands("String", ordered + ["beginsWith", "contains"])
                .merging(["in": "[String!]", "isNull": "Boolean", "caseInsensitive": "Boolean"]) { $1 })
        #expect(
            try generated.inputFields("RecordNameFilter")
                == operands("ID", ordered)
                .merging(["in": "[ID!]", "beginsWith": "String", "caseInsensitive": "Boolean"]) { $1 })
        #expect(try generated.inputFields("FloatFilter") == operands("Float", ordered).merging(["in": "[Float!]", "isNull": "Boolean"]) { $1 })
        #expect(try generated.inputFields("TimestampFilter") == operands("Timestamp", ordered).merging(["in": "[Timestamp!]", "isNull": "Boolean"]) { $1 })
        #expect(try generated.inputFields("ReferenceFilter") == ["eq": "ID", "ne": "ID", "in": "[ID!]", "isNull": "Boolean"])
        #expect(try generated.inputFields("BytesFilter") == ["eq": "Bytes", "ne": "Bytes", "isNull": "Boolean"])
        #expect(try generated.inputFields("LocationFilter") == ["distance": "DistanceFilter", "isNull": "Boolean"])
        #expect(try generated.inputFields("DistanceFilter") == operands("Float", ["lt", "lte", "gt", "gte"]).merging(["from": "LocationInput!"]) { $1 })
        #expect(try generated.inputFields("PresenceFilter") == ["isNull": "Boolean"])
        #expect(try generated.inputFields("StringListFilter") == ["contains": "String", "caseInsensitive": "Boolean", "isNull": "Boolean"])
        #expect(try generated.inputFields("Int64ListFilter") == ["contains": "Int64", "isNull": "Boolean"])
        #expect(try generated.inputFields("ReferenceListFilter") == ["contains": "ID", "isNull": "Boolean"])
    }

    @Test func searchIsOfferedOnlyOnTypesWithSearchableFields() throws {
        let generated = try RecordQLSchema(try TestSchemas.everyFieldType())
        #expect(try generated.inputFields("EverythingFilter")["search"] == "String")
        let shopping = try RecordQLSchema(try Schema.shopping)
        #expect(try shopping.inputFields("ItemsFilter")["search"] == nil)
        #expect(try shopping.inputFields("ListsFilter")["search"] == "String")
    }

    @Test func aTypeWithoutFieldsHasNoInputAndItsMutationsNoFields() throws {
        let generated = try RecordQLSchema(try ckdbSchema("RECORD TYPE Empty (\"___recordID\" REFERENCE QUERYABLE);"))
        #expect(!generated.hasType("EmptyInput"))
        #expect(try generated.arguments("Mutation", "createEmpty") == ["recordName": "ID"])
        #expect(try generated.arguments("Mutation", "updateEmpty") == ["recordName": "ID!", "ifChangeTag": "String"])
        #expect(try generated.outputFields("Empty") == ["recordName", "recordType", "createdAt", "modifiedAt", "changeTag"])
    }

    @Test func anEmptySchemaHasOnlyTheAssetAndChangesQueries() throws {
        let generated = try RecordQLSchema(Schema())
        #expect(try generated.outputFields("Query") == ["asset", "changes"])
        #expect(generated.graphQLSchema.mutationType == nil)
    }
}
