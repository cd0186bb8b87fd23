import Foundation
import GraphQL
import RecordKit
import TestSupport
import Testing

@testable import RecordQL

@Suite("Introspection through GraphQLSwift, and the SDL through graphql-core")
struct IntrospectionTests {
    /// The full introspection query, as graphql-js and graphql-core write it with every option on.
    static let introspectionQuery = """
        query IntrospectionQuery {
          __schema {
            description
            queryType { name }
            mutationType { name }
            subscriptionType { name }
            types { ...FullType }
            directives {
              name
              description
              isRepeatable
              locations
              args(includeDeprecated: true) { ...InputValue }
            }
          }
        }

        fragment FullType on __Type {
          kind
          name
          description
          specifiedByURL
          fields(includeDeprecated: true) {
            name
            description
            args(includeDeprecated: true) { ...InputValue }
            type { ...TypeRef }
            isDeprecated
            deprecationReason
          }
          inputFields(includeDeprecated: true) { ...InputValue }
          interfaces { ...TypeRef }
          enumValues(includeDeprecated: true) {
            name
            description
            isDeprecated
            deprecationReason
          }
          possibleTypes { ...TypeRef }
        }

        fragment InputValue on __InputValue {
          name
          description
          type { ...TypeRef }
          defaultValue
          isDeprecated
          deprecationReason
        }

        fragment TypeRef on __Type {
          kind
          name
          ofType { kind name ofType { kind name ofType { kind name ofType { kind name
            ofType { kind name ofType { kind name ofType { kind name ofType { kind name } } } } } } } }
        }
        """

    static let schemas: [(name: String, schema: @Sendable () throws -> Schema)] = [
        ("shopping", { try Schema.shopping }),
        ("shopping with number", { try TestSchemas.shoppingWithNumber() }),
        ("every field type", { try TestSchemas.everyFieldType() }),
        ("catalog", { try TestSchemas.catalog() }),
    ]

    @Test(arguments: schemas.map(\.name))
    func theFullIntrospectionQueryAnswersWithoutResolvers(_ name: String) async throws {
        let schema = try #require(Self.schemas.first { $0.name == name }).schema()
        let generated = try RecordQLSchema(schema)
        let result = try await graphql(schema: generated.graphQLSchema, request: Self.introspectionQuery)
        #expect(result.errors.isEmpty, "\(result.errors)")
        let data = try #require(result.data)
        #expect(data["__schema", "queryType", "name"] == "Query")
        #expect(data["__schema", "mutationType", "name"] == "Mutation")
        let types = Set(data["__schema", "types"].array?.compactMap { $0["name"].string } ?? [])
        let expected =
            ["Record", "Timestamp", "SortDirection", "DeleteResult", "ReferenceInput"]
            + schema.recordTypes.flatMap { type in ["", "Filter", "Sort", "Input", "Page"].map { type.name + $0 } }
        #expect(types.isSuperset(of: expected), "missing: \(Set(expected).subtracting(types))")
        let directives = data["__schema", "directives"].array?.compactMap { $0["name"].string } ?? []
        #expect(directives.contains("transaction"))

        let json = String(decoding: try GraphQLJSONEncoder().encode(result), as: UTF8.self)
        let differences = try GraphQLCore.compareIntrospection(json, with: generated.sdl)
        #expect(differences.isEmpty, "introspection and SDL disagree:\n\(differences)")
    }

    @Test func inputValuesAnswerIsDeprecatedAndTheirDefaults() async throws {
        let generated = try RecordQLSchema(try Schema.shopping)
        let result = try await graphql(
            schema: generated.graphQLSchema,
            request: #"{ __type(name: "ReferenceInput") { inputFields { name defaultValue isDeprecated } } }"#
        )
        #expect(result.errors.isEmpty, "\(result.errors)")
        let fields = result.data?["__type", "inputFields"].array ?? []
        // GraphQLSwift lists members in name order.
        #expect(fields.map { $0["name"].string } == ["action", "recordName"])
        #expect(fields.map { $0["defaultValue"] } == ["NONE", .null])
        #expect(fields.map { $0["isDeprecated"] } == [false, false])
    }

    @Test func theSDLIsAcceptedByGraphQLCore() throws {
        let printed = try GraphQLCore.buildSchema(try RecordQLSchema(try Schema.shopping).sdl)
        #expect(printed.contains("type Lists implements Record"))
        #expect(printed.contains("directive @transaction(id: String!) on MUTATION"))
    }

    @Test func everyTestSchemaAndRealCloudKitSchemaIsAcceptedByGraphQLCore() throws {
        var sdl: [String: String] = [:]
        for (name, schema) in Self.schemas {
            sdl[name] = try RecordQLSchema(try schema()).sdl
        }
        for (name, schema) in try TestSchemas.realFixtures() {
            sdl[name] = try RecordQLSchema(schema).sdl
        }
        #expect(sdl.count > 20)
        let problems = try GraphQLCore.buildSchemas(sdl)
        #expect(problems.isEmpty, "\(problems)")
    }
}
