import GraphQL
import RecordKit

@testable import RecordQL

/// Reading the generated schema in tests: types as GraphQL writes them (`[Items!]!`).
extension RecordQLSchema {
    /// The type of field `field` of object or interface `type`, e.g. `[Items!]!`.
    func outputField(_ type: String, _ field: String) throws -> String? {
        let named = graphQLSchema.getType(name: type)
        if let object = named as? GraphQLObjectType { return try object.fields()[field]?.type.debugDescription }
        if let interface = named as? GraphQLInterfaceType { return try interface.fields()[field]?.type.debugDescription }
        return nil
    }

    /// The field names of object or interface `type`, in order.
    func outputFields(_ type: String) throws -> [String] {
        let named = graphQLSchema.getType(name: type)
        if let object = named as? GraphQLObjectType { return try Array(object.fields().keys) }
        if let interface = named as? GraphQLInterfaceType { return try Array(interface.fields().keys) }
        return []
    }

    /// The arguments of field `field` of object `type` with their types, e.g. `["limit": "Int"]`.
    func arguments(_ type: String, _ field: String) throws -> [String: String] {
        guard let object = graphQLSchema.getType(name: type) as? GraphQLObjectType, let definition = try object.fields()[field] else { return [:] }
        return Dictionary(uniqueKeysWithValues: definition.args.map { ($0.key, $0.value.type.debugDescription) })
    }

    /// The fields of input object `type` with their types.
    func inputFields(_ type: String) throws -> [String: String] {
        guard let input = graphQLSchema.getType(name: type) as? GraphQLInputObjectType else { return [:] }
        return Dictionary(uniqueKeysWithValues: try input.fields().map { ($0.key, $0.value.type.debugDescription) })
    }

    /// Whether the schema has a type named `name`.
    func hasType(_ name: String) -> Bool { graphQLSchema.getType(name: name) != nil }
}

/// A schema from CKDB text.
func ckdbSchema(_ text: String) throws -> Schema {
    try CKDBParser.parse("DEFINE SCHEMA\n" + text)
}
