import RecordKit
import RecordQL

extension GraphQLResponse {
    /// A request the service refuses before running it: `{"errors":[{"message", "extensions": {"code"}}]}`.
    static func refusal(_ code: RecordError.Code, _ message: String) -> GraphQLResponse {
        var response = GraphQLResponse(json: "", errors: [GraphQLResponseError(code, message)])
        response.json = "{\"errors\":" + response.errorsJSON + "}"
        return response
    }

    /// What a subscriber gets when its token was revoked while it listened, before it is disconnected.
    static var revoked: GraphQLResponse {
        refusal(.permissionFailure, "the token was revoked, so the subscription ended; subscribe again with a valid token (shop token create)")
    }

    /// What a subscriber gets when it fell ``LiveFeed/capacity`` results behind, before it is disconnected.
    static var tooSlow: GraphQLResponse {
        refusal(
            .limitExceeded,
            "the subscriber fell \(LiveFeed.capacity) results behind and was disconnected; read the results as they come, then subscribe again")
    }
}
