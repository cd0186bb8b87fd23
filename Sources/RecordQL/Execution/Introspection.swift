import GraphQL
import OrderedCollections
import RecordKit

/// Answers the introspection root fields (`__schema`, `__type`) of a query through
/// GraphQLSwift's executor, which knows the generated schema; data fields never go there.
enum Introspection {
    /// The JSON text of each root field in `keys`, by key: the operation is run with only those
    /// root fields (fragments, aliases and directives as written).
    static func answer(_ keys: Set<String>, of request: PreparedRequest, nodes: [Field]) async throws(GraphQLFailure) -> [String: String] {
        let selections = request.operation.selectionSet.set(value: .array(nodes), key: "selections")
        let operation = request.operation.set(value: .node(selections), key: "selectionSet")
        let definitions: [any Node] = [operation] + request.document.definitions.filter { $0 is FragmentDefinition }
        let document = request.document.set(value: .array(definitions), key: "definitions")
        let result: GraphQLResult
        do {
            result = try await execute(
                schema: request.context.graphQLSchema,
                documentAST: document,
                rootValue: (),
                context: (),
                variableValues: request.rawVariables
            )
        } catch {
            throw GraphQLFailure(.internalError, "introspection failed: \(error)", stage: .execution)
        }
        guard result.errors.isEmpty else {
            throw GraphQLFailure(result.errors.map(responseError), stage: .execution)
        }
        guard case .dictionary(let data)? = result.data else {
            throw GraphQLFailure(.internalError, "introspection returned no data", stage: .execution)
        }
        var answers: [String: String] = [:]
        for key in keys {
            answers[key] = JSONWriter.json(data[key] ?? .null)
        }
        return answers
    }

    private static func responseError(_ error: GraphQLError) -> GraphQLResponseError {
        GraphQLResponseError(
            .invalidArguments, error.message,
            locations: error.locations.map(\.responseLocation),
            path: error.path.elements.map { element in
                switch element {
                case .key(let key): .key(key)
                case .index(let index): .index(index)
                }
            }
        )
    }
}
