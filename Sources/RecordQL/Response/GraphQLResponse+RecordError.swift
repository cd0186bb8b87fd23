public import RecordKit

extension GraphQLResponse {
    /// `{"errors":[…]}` holding `error` as one GraphQL error: its message, its location in the
    /// document (when it has one) and `extensions` with its code, reason and remedy; for an edge
    /// that answers an engine error in GraphQL's shape outside a GraphQL request (an explanation).
    public init(error: RecordError) {
        let located = GraphQLResponseError(
            error.code, error.message,
            locations: error.location.map { [GraphQLResponseError.Location(line: $0.line, column: $0.column)] } ?? [],
            reason: error.reason, remedy: error.remedy
        )
        self.init(failure: GraphQLFailure([located], stage: .validation))
    }
}
