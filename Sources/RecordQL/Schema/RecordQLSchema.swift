public import GraphQL
public import RecordKit

/// The GraphQL schema generated from a RecordKit ``Schema`` (the README's query language section); make a new one for
/// each schema version.
///
/// ```graphql
/// interface Record { recordName: ID!, recordType: String!, createdAt: Timestamp!, modifiedAt: Timestamp!, changeTag: String! }
/// type Items implements Record { recordName: ID! … name: String, list: Lists }
/// type Lists implements Record { … name: String, Items(where: ItemsFilter, predicate: String, sort: [ItemsSort!], limit: Int): [Items!]! }
/// type Query { Items(where:, predicate:, sort:, limit:): [Items!]!, ItemsPage(…, after: String): ItemsPage!, …, asset(sha256: String!): Bytes }
/// type Mutation { createItems(recordName: ID, fields: ItemsInput!): Items!, updateItems(…), deleteItems(recordName: ID!): DeleteResult!, … }
/// directive @transaction(id: String!) on MUTATION
/// ```
///
/// Field types: STRING → `String`, INT64 → `Int64`, DOUBLE → `Float`, NUMBER → `Float`
/// (`Int64` when PREFERRED AS INT64), TIMESTAMP → `Timestamp`, BYTES → `Bytes`, LOCATION →
/// `Location`, ASSET → `Asset`, LIST<T> → `[T!]`, REFERENCE → the referenced type's object
/// (the `Record` interface when the field declares no type), LIST<REFERENCE> → `[thatType]`;
/// user fields are nullable (a record may lack a value). The custom scalars are described in
/// ``CustomScalars``; `where:` in ``FilterTranslator``; `sort:` in ``SortTranslator``;
/// `fields:` in ``FieldInputTranslator``; names and how clashes are resolved in
/// ``GraphQLNameMap``. CloudKit's own record types (`cloudkit.share`) are left out. A type
/// without user fields has no `TInput`; its create and update mutations take no `fields`.
///
/// No resolvers are needed: GraphQLSwift parses, validates and answers introspection with the
/// schema as generated, and data queries are compiled elsewhere. Give a ``RecordResolver`` to
/// execute data queries with GraphQLSwift's executor instead (a reference implementation).
public struct RecordQLSchema: Sendable {
    /// The RecordKit schema this was generated from.
    public let schema: Schema
    /// The generated GraphQLSwift schema.
    public let graphQLSchema: GraphQLSchema
    /// The GraphQL names of record types and fields, and what each GraphQL name means.
    public let names: GraphQLNameMap

    /// Generates the GraphQL schema of `schema`; with `resolver`, its fields resolve data
    /// through it. Fails with `internalError` only if the result would not be a valid schema.
    public init(_ schema: Schema, resolver: (any RecordResolver)? = nil) throws(RecordError) {
        IntrospectionPatch.applied
        try Self.checkNames(schema)
        let names = GraphQLNameMap(schema)
        do {
            graphQLSchema = try SchemaBuilder(schema: schema, names: names, resolver: resolver).build()
        } catch let error as RecordError {
            throw error
        } catch {
            throw RecordError(.internalError, "could not generate the GraphQL schema: \(error)", underlyingError: error)
        }
        self.schema = schema
        self.names = names
    }

    /// The schema in GraphQL's schema definition language (what `schema graphql` prints).
    public var sdl: String { printSchema(schema: graphQLSchema) }

    /// The translator of `where:` values of `recordType`'s list, page and referrers fields.
    public func filterTranslator(for recordType: String) throws(RecordError) -> FilterTranslator {
        let (type, typeNames) = try lookUp(recordType)
        return FilterTranslator(recordType: type, names: typeNames)
    }

    /// The translator of `sort:` values of `recordType`'s list, page and referrers fields.
    public func sortTranslator(for recordType: String) throws(RecordError) -> SortTranslator {
        let (type, typeNames) = try lookUp(recordType)
        return SortTranslator(recordType: type, names: typeNames)
    }

    /// The translator of `fields:` values of `recordType`'s create and update mutations.
    public func fieldInputTranslator(for recordType: String) throws(RecordError) -> FieldInputTranslator {
        let (type, typeNames) = try lookUp(recordType)
        return FieldInputTranslator(recordType: type, names: typeNames)
    }

    /// The query that the coerced `arguments` (`where`, `predicate`, `sort`, `limit`) of a list,
    /// page or referrers field of `recordType` ask for; `where` and `predicate` are ANDed.
    public func query(_ recordType: String, arguments: Map) throws(RecordError) -> Query {
        let (type, typeNames) = try lookUp(recordType)
        return try QueryArguments(recordType: type, names: typeNames).query(arguments)
    }

    /// The `after:` cursor among a page field's coerced `arguments`.
    public func cursor(_ recordType: String, arguments: Map) throws(RecordError) -> String? {
        let (type, typeNames) = try lookUp(recordType)
        return try QueryArguments(recordType: type, names: typeNames).cursor(arguments)
    }

    /// The operation that the coerced `arguments` of `recordType`'s create, update or delete
    /// mutation ask for.
    public func operation(_ field: GraphQLNameMap.MutationField, arguments: Map) throws(RecordError) -> RecordOperation {
        let operations = try self.operations(field, arguments: arguments)
        guard operations.count == 1, let operation = operations.first else {
            throw RecordError(.invalidArguments, "\(field) asks for \(operations.count) operations, not one", recordType: field.recordType)
        }
        return operation
    }

    /// The operations, in order, that the coerced `arguments` of any of `recordType`'s mutations
    /// ask for: one for `createT`, `updateT` and `deleteT`, one per element for their list forms.
    public func operations(_ field: GraphQLNameMap.MutationField, arguments: Map) throws(RecordError) -> [RecordOperation] {
        let (type, typeNames) = try lookUp(field.recordType)
        let mutation = MutationArguments(recordType: type, names: typeNames)
        return switch field {
        case .create: [try mutation.create(arguments)]
        case .update: [try mutation.update(arguments)]
        case .delete: [.delete(recordName: try mutation.deletedRecordName(arguments))]
        case .createMany: try mutation.creates(arguments)
        case .updateMany: try mutation.updates(arguments)
        case .deleteMany: try mutation.deletedRecordNames(arguments).map { .delete(recordName: $0) }
        }
    }

    /// Throws `schemaViolation` for a record type or user field whose name is not a RecordKit
    /// identifier (only a schema built without RecordKit's checks can have one): GraphQL names
    /// are letters, digits and `_`.
    private static func checkNames(_ schema: Schema) throws(RecordError) {
        for type in schema.recordTypes where !type.isCloudKitSystemType {
            guard Identifier.isValid(type.name) else {
                throw RecordError(
                    .schemaViolation,
                    "record type '\(type.name)' cannot be exposed in GraphQL: names start with a letter and contain only letters, digits and '_'",
                    recordType: type.name)
            }
            for field in type.userFields where !Identifier.isValid(field.name) {
                throw RecordError(
                    .schemaViolation,
                    "field '\(field.name)' of \(type.name) cannot be exposed in GraphQL: names start with a letter and contain only letters, digits and '_'",
                    recordType: type.name, field: field.name
                )
            }
        }
    }

    private func lookUp(_ recordType: String) throws(RecordError) -> (RecordType, GraphQLNameMap.RecordTypeNames) {
        let type = try schema.requireRecordType(recordType)
        guard let typeNames = names[recordType] else {
            throw RecordError(.schemaViolation, "\(recordType) is one of CloudKit's own record types and stores no records", recordType: recordType)
        }
        return (type, typeNames)
    }
}
