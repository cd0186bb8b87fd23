import GraphQL
import OrderedCollections

/// Completes GraphQLSwift 4.3.0's `__InputValue` introspection type, which every schema shares.
///
/// - `isDeprecated: Boolean!` has no resolver and argument and input-field definitions have no
///   such property, so it resolves to null and any introspection query asking for it (graphql-js
///   `getIntrospectionQuery({inputValueDeprecation: true})`, as GraphiQL sends) fails with
///   "Cannot return null for non-nullable field __InputValue.isDeprecated".
/// - `defaultValue` is resolved for arguments only, so input fields (`ReferenceInput.action =
///   NONE`) show none.
///
/// The fields are replaced once per process, before the first generated schema exists (so no
/// introspection can be running); the other fields keep GraphQLSwift's resolvers.
enum IntrospectionPatch {
    /// Applies the patch the first time it is read.
    static let applied: Void = {
        guard let schema = try? GraphQLSchema(), let inputValue = schema.getType(name: "__InputValue") as? GraphQLObjectType,
            var fields = try? inputValue.fields(), let argumentDefaultValue = fields["defaultValue"]
        else { return }
        fields["isDeprecated"] = GraphQLField(type: GraphQLNonNull(GraphQLBoolean)) { source, _, _, _ in
            switch source {
            case let argument as GraphQLArgumentDefinition: argument.deprecationReason != nil
            case let field as InputObjectFieldDefinition: field.deprecationReason != nil
            default: false
            }
        }
        fields["defaultValue"] = GraphQLField(
            type: GraphQLString,
            description: argumentDefaultValue.description,
            resolve: { source, arguments, context, info in
                guard let field = source as? InputObjectFieldDefinition else {
                    return try await argumentDefaultValue.resolve?(source, arguments, context, info)
                }
                return try field.defaultValue.flatMap { try literal($0, of: field.type) }
            }
        )
        let patched = fields
        inputValue.fields = { patched }
    }()

    /// `value` written as a GraphQL literal of `type`, for the default values the generated
    /// schema uses (enum values, strings, numbers, booleans).
    private static func literal(_ value: Map, of type: any GraphQLType) throws -> String? {
        if let enumType = getNamedType(type: type) as? GraphQLEnumType {
            return try enumType.serialize(value: value).string
        }
        switch value {
        case .string(let text): return String(decoding: try GraphQLJSONEncoder().encode(text), as: UTF8.self)
        case .number(let number): return number.description
        case .bool(let flag): return flag ? "true" : "false"
        default: return nil
        }
    }
}
