import GraphQL
import RecordKit

/// A request ready to plan: its validated document, the operation chosen by name and the
/// variables coerced to their declared types.
struct PreparedRequest: Sendable {
    let context: SchemaContext
    let document: Document
    let operation: OperationDefinition
    let fragments: [String: FragmentDefinition]
    /// Variables as their declared types make them; a variable neither given nor defaulted is absent.
    let variables: [String: Map]
    /// Variables as the request gave them (GraphQLSwift's introspection coerces its own).
    let rawVariables: [String: Map]
    /// The most records the response may hold (``RecordQLEngine/maximumResponseRecords``).
    var maximumRecords: Int? = ResponseLimits.maximumRecords

    init(document: Document, context: SchemaContext, operationName: String?, variables: [String: Map]) throws(GraphQLFailure) {
        self.context = context
        self.document = document
        let operation = try Self.operation(named: operationName, in: document)
        self.operation = operation
        fragments = Dictionary(
            document.definitions.compactMap { $0 as? FragmentDefinition }.map { ($0.name.value, $0) },
            uniquingKeysWith: { first, _ in first }
        )
        do throws(GraphQLFailure) {
            self.variables = try Self.coerce(variables, definitions: operation.variableDefinitions, schema: context.graphQLSchema)
        } catch {
            throw error.of(OperationKind(operation.operation))
        }
        rawVariables = variables
    }

    /// The kind of the operation `name` chooses in `document` (the only one when `nil`), or `nil`
    /// when it chooses none.
    static func kind(of name: String?, in document: Document) -> OperationKind? {
        let operations = document.definitions.compactMap { $0 as? OperationDefinition }
        let chosen = name.map { name in operations.first { $0.name?.value == name } } ?? (operations.count == 1 ? operations.first : nil)
        return chosen.map { OperationKind($0.operation) }
    }

    /// The operation named `name`, or the only one when no name is given.
    private static func operation(named name: String?, in document: Document) throws(GraphQLFailure) -> OperationDefinition {
        let operations = document.definitions.compactMap { $0 as? OperationDefinition }
        let chosen: OperationDefinition
        if let name {
            guard let named = operations.first(where: { $0.name?.value == name }) else {
                let known = operations.compactMap(\.name?.value)
                throw GraphQLFailure(
                    .invalidArguments,
                    "the document has no operation named '\(name)'" + (known.isEmpty ? "" : " (it has: \(known.joined(separator: ", ")))")
                )
            }
            chosen = named
        } else {
            guard operations.count == 1, let only = operations.first else {
                throw GraphQLFailure(
                    .invalidArguments,
                    operations.isEmpty
                        ? "the document has no operation to run" : "the document has \(operations.count) operations; give the name of the one to run"
                )
            }
            chosen = only
        }
        if chosen.operation == .subscription { try checkSubscriptionRoot(chosen) }
        return chosen
    }

    /// Refuses a subscription that does not select exactly one root field, or selects an
    /// introspection field (GraphQL's single-root-field rule for subscriptions, written
    /// without fragments at the root).
    private static func checkSubscriptionRoot(_ operation: OperationDefinition) throws(GraphQLFailure) {
        let selections = operation.selectionSet.selections
        guard selections.count == 1, let field = selections.first as? Field else {
            throw GraphQLFailure(
                .invalidArguments,
                "a subscription selects exactly one root field, written out (not in a fragment), not \(selections.count); "
                    + "subscribe to each query field on its own",
                at: [operation]
            ).of(.subscription)
        }
        guard !field.name.value.hasPrefix("__") else {
            throw GraphQLFailure(
                .invalidArguments, "a subscription cannot select the introspection field '\(field.name.value)'; use a query", at: [field]
            ).of(.subscription)
        }
    }

    /// The variables of `definitions` coerced from `given`, defaults applied.
    private static func coerce(_ given: [String: Map], definitions: [VariableDefinition], schema: GraphQLSchema) throws(GraphQLFailure) -> [String: Map] {
        var coerced: [String: Map] = [:]
        for definition in definitions {
            let name = definition.variable.name.value
            guard let type = inputType(definition.type, in: schema) else {
                throw GraphQLFailure(
                    .invalidArguments, "variable $\(name) has type \(print(ast: definition.type)), which is not an input type", at: [definition])
            }
            let value = given[name] ?? .undefined
            do throws(GraphQLFailure) {
                if value != .undefined {
                    coerced[name] = try InputCoercion.coerce(value, to: type, variable: name)
                } else if let literal = definition.defaultValue {
                    coerced[name] = try InputCoercion(variables: [:]).coerce(literal, to: type)
                } else if type is GraphQLNonNull {
                    throw GraphQLFailure(.invalidArguments, "variable $\(name) of type \(type) was not given")
                }
            } catch {
                throw GraphQLFailure(
                    error.errors.map { error in
                        var located = error
                        located.locations = definition.responseLocation.map { [$0] } ?? []
                        return located
                    }, stage: .variables)
            }
        }
        return coerced
    }

    /// The schema type a variable definition's type names, or `nil` if it is not an input type.
    private static func inputType(_ type: any GraphQL.`Type`, in schema: GraphQLSchema) -> (any GraphQLInputType)? {
        switch type {
        case let list as ListType:
            return inputType(list.type, in: schema).map { GraphQLList($0) }
        case let nonNull as NonNullType:
            guard let inner = inputType(nonNull.type, in: schema) as? any GraphQLNullableType else { return nil }
            return GraphQLNonNull(inner)
        case let named as NamedType:
            return schema.getType(name: named.name.value) as? any GraphQLInputType
        default:
            return nil
        }
    }
}
