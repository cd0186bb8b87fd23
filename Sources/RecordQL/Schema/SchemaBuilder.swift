import GraphQL
import OrderedCollections
import RecordKit

/// Builds the GraphQLSwift schema of a RecordKit schema, as ``RecordQLSchema`` describes it.
///
/// Input types (`TFilter`, `TSort`, `TInput`) are made first: they refer only to shared types
/// and, for `TFilter`, to themselves. Object types refer to each other (references one way,
/// referrers the other), so their fields are given lazily, read from this builder while
/// GraphQLSwift assembles the schema, then fixed so that the schema no longer needs the builder.
final class SchemaBuilder {
    let schema: Schema
    let names: GraphQLNameMap
    let resolver: (any RecordResolver)?
    let shared: SharedTypes
    /// The record types that store records, in name order.
    let stored: [RecordType]
    private(set) var filters: [String: GraphQLInputObjectType] = [:]
    private(set) var sorts: [String: GraphQLInputObjectType] = [:]
    /// `TInput` of each record type that has user fields.
    private(set) var inputs: [String: GraphQLInputObjectType] = [:]
    private(set) var objects: [String: GraphQLObjectType] = [:]
    private(set) var pages: [String: GraphQLObjectType] = [:]
    /// `TAggregate` of each record type.
    private(set) var aggregates: [String: GraphQLObjectType] = [:]

    init(schema: Schema, names: GraphQLNameMap, resolver: (any RecordResolver)?) throws {
        self.schema = schema
        self.names = names
        self.resolver = resolver
        self.stored = schema.recordTypes.filter { !$0.isCloudKitSystemType }
        shared = try SharedTypes(resolveRecordType: resolver == nil ? nil : Self.objectTypeResolver(names))
    }

    /// Names the object type of a resolved ``Record``, for fields typed with the `Record` interface.
    private static func objectTypeResolver(_ names: GraphQLNameMap) -> GraphQLTypeResolve {
        { value, _ in
            guard let record = value as? Record, let object = names[record.recordType]?.objectType else {
                throw GraphQLError(message: "no object type for the record \(value)")
            }
            return object
        }
    }

    /// The GraphQLSwift schema, checked with GraphQLSwift's schema validation.
    func build() throws -> GraphQLSchema {
        for type in stored {
            let typeNames = try self.names(of: type)
            filters[type.name] = try filterType(type, typeNames)
            sorts[type.name] = try sortType(type, typeNames)
            inputs[type.name] = try inputType(type, typeNames)
            aggregates[type.name] = try aggregateType(type, typeNames)
        }
        for type in stored {
            let typeNames = try self.names(of: type)
            let object = try GraphQLObjectType(
                name: typeNames.objectType,
                description: "Records of type \(type.name).",
                fields: { [weak self] in
                    guard let self else { throw RecordError(.internalError, "the fields of \(type.name) were read after their builder was released") }
                    return try self.objectFields(type)
                },
                interfaces: { [shared] in [shared.record] }
            )
            objects[type.name] = object
            pages[type.name] = try pageType(type, typeNames, object)
        }
        // Every object type is reachable from Query (its list field), so GraphQLSwift reads and
        // caches the fields of all of them here, while this builder is alive.
        let graphQLSchema = try GraphQLSchema(
            query: try queryRoot(),
            mutation: stored.isEmpty ? nil : try mutationRoot(),
            subscription: stored.isEmpty ? nil : try subscriptionRoot(),
            directives: [
                GraphQLIncludeDirective, GraphQLSkipDirective, GraphQLDeprecatedDirective,
                GraphQLSpecifiedByDirective, GraphQLOneOfDirective, shared.transaction,
            ]
        )
        // Hand each object type its finished fields, so that reading them later (GraphQLSwift
        // keeps `fields` public) no longer needs this builder.
        for object in objects.values {
            let fields = try object.fields()
            object.fields = { fields }
        }
        let problems = validateSchema(schema: graphQLSchema)
        guard problems.isEmpty else {
            throw RecordError(
                .internalError,
                "the generated GraphQL schema is invalid: " + problems.map(\.message).joined(separator: "; ")
            )
        }
        return graphQLSchema
    }

    /// The names of a stored record type.
    func names(of type: RecordType) throws(RecordError) -> GraphQLNameMap.RecordTypeNames {
        guard let typeNames = names[type.name] else {
            throw RecordError(.internalError, "no GraphQL names for record type \(type.name)", recordType: type.name)
        }
        return typeNames
    }

    /// A built type of the stored record type `recordType`.
    func built<T>(_ types: [String: T], _ recordType: String) throws(RecordError) -> T {
        guard let type = types[recordType] else {
            throw RecordError(.internalError, "the GraphQL types of \(recordType) are not built", recordType: recordType)
        }
        return type
    }

    /// `where`, `predicate`, `sort`, `limit`: the arguments of list and referrers fields.
    func listArguments(_ recordType: String) throws(RecordError) -> GraphQLArgumentConfigMap {
        [
            GraphQLNames.whereArgument: GraphQLArgument(type: try built(filters, recordType), description: "Which records: a filter object."),
            GraphQLNames.predicateArgument: GraphQLArgument(
                type: GraphQLString,
                description: "Which records, in NSPredicate format, e.g. \"name BEGINSWITH[c] 'mi'\"; ANDed with where."
            ),
            GraphQLNames.sortArgument: GraphQLArgument(
                type: GraphQLList(GraphQLNonNull(try built(sorts, recordType))),
                description: "Sort keys, most significant first, one per object, e.g. [{number: DESC}, {name: ASC}]; ties are broken by recordName."
            ),
            GraphQLNames.limitArgument: GraphQLArgument(type: GraphQLInt, description: "At most this many records."),
        ]
    }
}
