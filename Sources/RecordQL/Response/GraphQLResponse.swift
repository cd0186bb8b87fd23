/// The response to one request, as GraphQL defines it.
///
/// ``json`` is the text to hand to a client: compact, object keys in selection order.
/// A request that could not run (syntax, validation, variables) answers `{"errors":[…]}`;
/// one that failed while running answers `{"data":null,"errors":[…]}` and changed nothing.
/// The errors are also kept structured in ``errors``.
public struct GraphQLResponse: Sendable, Hashable {
    /// The response as compact JSON.
    public var json: String
    /// The errors of the response, empty on success.
    public var errors: [GraphQLResponseError]

    /// The stage of the pipeline the request failed at; `nil` on success.
    public var failedStage: RequestStage?

    /// Whether this is the stored response of a transaction that ran before: a retry of a
    /// mutation under the same transaction ID, which applied nothing.
    public var isReplay: Bool = false

    /// Whether the request ran without error.
    public var isSuccess: Bool { errors.isEmpty }

    /// The errors alone, as a JSON array (GraphQL over WebSocket's `error` message carries them so).
    public var errorsJSON: String { "[" + errors.map(\.json).joined(separator: ",") + "]" }

    /// A response as another process sent it: its JSON text as received, with its errors read
    /// from it (`shop --server` holds a server's answers this way).
    public init(json: String, errors: [GraphQLResponseError], isReplay: Bool = false) {
        self.json = json
        self.errors = errors
        self.isReplay = isReplay
    }

    /// `{"data":<data>}`, where `data` is the JSON text of the data object.
    init(data: String, isReplay: Bool = false) {
        json = "{\"data\":" + data + "}"
        errors = []
        self.isReplay = isReplay
    }

    /// A failed request: `{"errors":[…]}` when it never ran, `{"data":null,"errors":[…]}` when it did.
    init(failure: GraphQLFailure) {
        errors = failure.errors
        failedStage = failure.stage
        let list = "\"errors\":[" + failure.errors.map(\.json).joined(separator: ",") + "]"
        json = failure.ran ? "{\"data\":null," + list + "}" : "{" + list + "}"
    }
}
