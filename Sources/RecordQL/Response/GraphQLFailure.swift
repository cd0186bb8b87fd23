import GraphQL
import RecordKit

/// Why a request failed, as the errors of its response, with the stage it failed at.
///
/// Thrown through the pipeline; ``GraphQLResponse/init(failure:)`` turns it into the response,
/// ``RequestFailure`` carries it to callers of ``RecordQLEngine/prepare(document:variables:operationName:)``.
struct GraphQLFailure: Error, Sendable {
    var errors: [GraphQLResponseError]
    /// Where in the pipeline it failed.
    var stage: RequestStage
    /// The kind of the operation chosen, when the document got that far.
    var kind: OperationKind?
    /// Whether the failure is the document's own, found by the planner rather than by
    /// GraphQLSwift's validation rules: it stays a validation failure where other failures met
    /// while planning become field errors (``running()``).
    private var invalidatesTheDocument = false

    /// Whether execution had started: the response then carries `"data": null`.
    var ran: Bool { stage == .execution }

    init(_ errors: [GraphQLResponseError], stage: RequestStage, kind: OperationKind? = nil) {
        self.errors = errors
        self.stage = stage
        self.kind = kind
    }

    /// One error located at `nodes` (the first of each that has a location).
    init(
        _ code: RecordError.Code, _ message: String, at nodes: [any Node] = [], path: [GraphQLResponseError.PathElement] = [],
        stage: RequestStage = .validation
    ) {
        self.init([GraphQLResponseError(code, message, locations: nodes.compactMap(\.responseLocation), path: path)], stage: stage)
    }

    /// An engine error met while preparing or running the field at `node`, reached by `path`.
    /// The position an error carries is inside the text it came from (a `predicate:` string).
    init(_ error: RecordError, at node: (any Node)?, path: [GraphQLResponseError.PathElement] = [], stage: RequestStage) {
        let position = error.location.map { " (at \($0.line):\($0.column) of the predicate)" } ?? ""
        let located = GraphQLResponseError(
            error.code, error.message + position, locations: node.flatMap(\.responseLocation).map { [$0] } ?? [], path: path,
            reason: error.reason, remedy: error.remedy
        )
        self.init([located], stage: stage)
    }

    /// A validation failure that GraphQLSwift's rules leave to the planner — fields under one
    /// response key that cannot merge (GraphQL's "Field Selection Merging", a rule GraphQLSwift
    /// does not have) — located at `nodes`. It fails the request before it runs, without `data`.
    static func invalidDocument(_ message: String, at nodes: [any Node]) -> GraphQLFailure {
        var failure = GraphQLFailure(.invalidArguments, message, at: nodes, stage: .validation)
        failure.invalidatesTheDocument = true
        return failure
    }

    /// Marks the failure as having happened during execution, unless it is the document's own
    /// (``invalidDocument(_:at:)``).
    func running() -> GraphQLFailure {
        var failure = self
        if !invalidatesTheDocument { failure.stage = .execution }
        return failure
    }

    /// The failure, marked as one of an operation of `kind`.
    func of(_ kind: OperationKind?) -> GraphQLFailure {
        var failure = self
        failure.kind = self.kind ?? kind
        return failure
    }
}

extension Node {
    /// Where the node starts in the document, when the parser kept locations.
    var responseLocation: GraphQLResponseError.Location? {
        loc.map { GraphQLResponseError.Location(line: $0.startToken.line, column: $0.startToken.column) }
    }
}
