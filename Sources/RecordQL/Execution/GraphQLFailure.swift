import GraphQL
import RecordKit

/// Why a request failed, as the errors of its response.
///
/// Thrown through the pipeline; ``GraphQLResponse/init(failure:)`` turns it into the response.
struct GraphQLFailure: Error, Sendable {
    var errors: [GraphQLResponseError]
    /// Whether execution had started: the response then carries `"data": null`.
    var ran: Bool

    init(_ errors: [GraphQLResponseError], ran: Bool) {
        self.errors = errors
        self.ran = ran
    }

    /// One error located at `nodes` (the first of each that has a location).
    init(_ code: RecordError.Code, _ message: String, at nodes: [any Node] = [], path: [GraphQLResponseError.PathElement] = [], ran: Bool = false) {
        self.init([GraphQLResponseError(code, message, locations: nodes.compactMap(\.responseLocation), path: path)], ran: ran)
    }

    /// An engine error met while preparing or running the field at `node`, reached by `path`.
    /// The position an error carries is inside the text it came from (a `predicate:` string).
    init(_ error: RecordError, at node: (any Node)?, path: [GraphQLResponseError.PathElement] = [], ran: Bool) {
        let position = error.location.map { " (at \($0.line):\($0.column) of the predicate)" } ?? ""
        self.init(error.code, error.message + position, at: node.map { [$0] } ?? [], path: path, ran: ran)
    }

    /// Marks the failure as having happened during execution.
    func running() -> GraphQLFailure {
        GraphQLFailure(errors, ran: true)
    }
}

extension Node {
    /// Where the node starts in the document, when the parser kept locations.
    var responseLocation: GraphQLResponseError.Location? {
        loc.map { GraphQLResponseError.Location(line: $0.startToken.line, column: $0.startToken.column) }
    }
}
