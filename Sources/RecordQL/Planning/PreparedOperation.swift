import GraphQL
import RecordKit

/// The kind of a GraphQL operation.
public enum OperationKind: String, Sendable, Hashable {
    case query
    case mutation
    case subscription

    init(_ operation: OperationType) {
        switch operation {
        case .query: self = .query
        case .mutation: self = .mutation
        case .subscription: self = .subscription
        }
    }
}

/// The stage of the pipeline a request failed at; a service chooses its answer by it (GraphQL
/// over HTTP: 400 for `parse`, 422 for `validation` and `variables`, 200 with `errors` for
/// `execution`).
public enum RequestStage: String, Sendable, Hashable {
    /// The text is not a GraphQL document (syntax, or past the size and depth limits).
    case parse
    /// The document does not validate against the schema, or names no operation to run (an
    /// unknown `operationName`, several operations and none named, a subscription).
    case validation
    /// A variable is missing or does not coerce to its declared type.
    case variables
    /// The mutation's transaction ID was used before for a different request: nothing ran
    /// (sending the first request again gets its stored response).
    case transaction
    /// The request ran (its arguments were translated, the storage was read or written) and
    /// failed doing it; the response carries `"data": null` and nothing was changed.
    case execution
}

/// A request that could not be prepared: the response to give, with the stage it failed at.
public struct RequestFailure: Error, Sendable {
    /// Where the request failed. ``RecordQLEngine/prepare(document:variables:operationName:)``
    /// fails at ``RequestStage/execution`` when the operation was valid but failed as it was
    /// planned (its arguments translated: a negative limit, a predicate that does not parse):
    /// a field error, answered with `"data": null`.
    public let stage: RequestStage
    /// The kind of the operation chosen, when the document parsed and names one.
    public let kind: OperationKind?
    /// The response to give: `{"errors":[…]}`.
    public let response: GraphQLResponse

    init(_ failure: GraphQLFailure) {
        stage = failure.stage
        kind = failure.kind
        response = GraphQLResponse(failure: failure)
    }
}

/// A request parsed, validated, its variables coerced and planned against one schema version,
/// ready for ``RecordQLEngine/run(_:)``.
///
/// Preparing touches no transaction; running checks that the schema is still at the version it
/// was planned against, and plans it again when it moved.
public struct PreparedOperation: Sendable {
    /// What the operation is: a service refuses a mutation over GET by this, before running it.
    public var kind: OperationKind { OperationKind(request.operation.operation) }
    /// The request's text, operation name and variables as given.
    let text: String
    let operationName: String?
    let variables: [String: Map]
    let request: PreparedRequest
    let plan: Plan
    /// Where the plan cache keeps it once it ran successfully; `nil` when it came from there,
    /// or cannot be kept (a mutation, large variables).
    var cacheKey: PlanCache.Key?

    enum Plan: Sendable {
        case query(QueryPlan)
        case mutation(MutationPlan)
    }

    /// The operation as the plan cache keeps it.
    func cached() -> PreparedOperation {
        var cached = self
        cached.cacheKey = nil
        return cached
    }

    /// The schema version it was planned against.
    var schemaVersion: Int { request.context.generation }
}
