import GraphQL
import RecordKit
import Synchronization

/// What the engine derives from one version of the RecordKit schema: the generated GraphQL
/// schema with its name map, and the argument definitions of its fields.
final class SchemaContext: Sendable {
    let generated: RecordQLSchema
    /// The RecordKit schema version this context was generated from; caches are keyed by it.
    let generation: Int
    /// Tells this context from any other, even one of the same generation (two requests may
    /// build one each): what is recorded while validating against it (``arguments``) holds only
    /// for documents validated against it, so the document cache is keyed by this.
    let identity = SchemaContext.serials.wrappingAdd(1, ordering: .relaxed).newValue
    private static let serials = Atomic<Int>(0)
    /// Argument definitions by type and field, recorded while documents are validated.
    let arguments = ArgumentCatalog()

    var schema: Schema { generated.schema }
    var graphQLSchema: GraphQLSchema { generated.graphQLSchema }
    var names: GraphQLNameMap { generated.names }

    init(schema: Schema, generation: Int) throws(RecordError) {
        generated = try RecordQLSchema(schema)
        self.generation = generation
    }

    /// The stored record type `name` with its GraphQL names, or `schemaViolation`.
    func recordType(_ name: String) throws(RecordError) -> (type: RecordType, names: GraphQLNameMap.RecordTypeNames) {
        let type = try schema.requireRecordType(name)
        guard let typeNames = names[name] else {
            throw RecordError(.schemaViolation, "\(name) is one of CloudKit's own record types and stores no records", recordType: name)
        }
        return (type, typeNames)
    }

    /// The record types stored records can have, in name order.
    var storedRecordTypes: [RecordType] {
        schema.recordTypes.filter { names[$0.name] != nil }
    }
}

/// The argument definitions of the fields of a schema, recorded by a validation rule while
/// GraphQLSwift validates documents (GraphQLSwift keeps resolved field definitions internal).
/// Every document is validated before it is planned, so the fields it selects are known by then.
final class ArgumentCatalog: Sendable {
    private struct Key: Hashable {
        var type: String
        var field: String
    }

    private let table = Mutex<[Key: [GraphQLArgumentDefinition]]>([:])

    /// The validation rule that records the fields a document selects.
    var rule: @Sendable (ValidationContext) -> Visitor {
        { [self] context in
            Visitor(enter: { node, _, _, _, _ in
                if node is Field, let parent = context.parentType, let definition = context.fieldDef {
                    let key = Key(type: parent.name, field: definition.name)
                    self.table.withLock { table in
                        if table[key] == nil { table[key] = definition.args }
                    }
                }
                return .continue
            })
        }
    }

    /// The arguments of field `field` of type `type`.
    func arguments(of field: String, in type: String) -> [GraphQLArgumentDefinition] {
        table.withLock { $0[Key(type: type, field: field)] } ?? []
    }
}

/// The context of the newest schema version seen, rebuilt when the schema version grows.
final class SchemaContextCache: Sendable {
    private let cached = Mutex<SchemaContext?>(nil)

    /// The context of the newest schema version seen, if any.
    var latest: SchemaContext? { cached.withLock { $0 } }

    /// The context for `schema` at `version`: the cached one while the version is unchanged. A
    /// reader still on an older version gets a context of its own and leaves the newer one cached.
    func context(for schema: Schema, version: Int) throws(RecordError) -> SchemaContext {
        if let context = cached.withLock({ $0 }), context.generation == version { return context }
        let context = try SchemaContext(schema: schema, generation: version)
        return cached.withLock { cached in
            // Another request may have built this version meanwhile: everyone shares the first.
            if let current = cached, current.generation >= version {
                return current.generation == version ? current : context
            }
            cached = context
            return context
        }
    }
}
