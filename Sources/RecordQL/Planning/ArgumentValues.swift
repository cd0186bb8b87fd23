import GraphQL
import OrderedCollections
import RecordKit

/// The arguments of one field, coerced to the types the schema declares for them, with
/// defaults applied; an argument neither given (nor given by a provided variable) nor
/// defaulted is absent.
struct ArgumentValues {
    /// The coerced arguments as one input object, the form the schema's translators read.
    private(set) var map: Map = [:]
    private var members: [(name: String, value: Map)] = []

    init(of field: FieldCollector.CollectedField, in typeName: String, context: SchemaContext, variables: [String: Map]) throws(GraphQLFailure) {
        let definitions = context.arguments.arguments(of: field.name, in: typeName)
        let coercion = InputCoercion(variables: variables)
        for argument in field.arguments {
            guard let definition = definitions.first(where: { $0.name == argument.name.value }) else {
                throw GraphQLFailure(.invalidArguments, "\(field.name) has no argument '\(argument.name.value)'", at: [argument])
            }
            let value = try coercion.coerce(argument.value, to: definition.type)
            if value != .undefined { members.append((argument.name.value, value)) }
        }
        for definition in definitions where !members.contains(where: { $0.name == definition.name }) {
            if let defaultValue = definition.defaultValue {
                members.append((definition.name, defaultValue))
            } else if definition.type is GraphQLNonNull {
                throw GraphQLFailure(.invalidArguments, "\(field.name) needs the argument '\(definition.name)' of type \(definition.type)", at: [field.node])
            }
        }
        map = .dictionary(.init(members, uniquingKeysWith: { first, _ in first }))
    }

    /// Argument `name` as a string, `nil` when absent or null.
    func string(_ name: String) -> String? {
        guard case .string(let text)? = members.first(where: { $0.name == name })?.value else { return nil }
        return text
    }

    /// Argument `name` as an integer, `nil` when absent, null or not a whole number.
    func int(_ name: String) -> Int? {
        guard case .number(let number)? = members.first(where: { $0.name == name })?.value else { return nil }
        return Int(exactly: number.doubleValue)
    }

    /// Argument `name` as a list of strings, `nil` when absent or null.
    func strings(_ name: String) -> [String]? {
        guard case .array(let elements)? = members.first(where: { $0.name == name })?.value else { return nil }
        return elements.compactMap { element in
            guard case .string(let text) = element else { return nil }
            return text
        }
    }
}
