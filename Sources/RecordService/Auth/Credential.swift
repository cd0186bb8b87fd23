public import Hummingbird

/// What a request presents to say who it is.
///
/// Server-to-server requests (CloudKit's `X-Apple-CloudKit-Request-KeyID`, `-ISO8601Date` and
/// `-SignatureV1` headers) become a third case when key registration arrives.
public enum Credential: Sendable, Hashable {
    /// `Authorization: Bearer TOKEN`, or CloudKit's `ckAPIToken` / `ckWebAuthToken` query parameters.
    case token(String)

    /// The credential `request` carries, `nil` when it carries none.
    public init?(_ request: Request) {
        if let authorization = request.headers[.authorization] {
            let parts = authorization.split(separator: " ", maxSplits: 1)
            if parts.count == 2, parts[0].lowercased() == "bearer" {
                self = .token(parts[1].trimmingWhitespace())
            } else {
                self = .token(authorization)
            }
            return
        }
        let query = request.uri.queryParameters
        if let token = query["ckWebAuthToken"] ?? query["ckAPIToken"] {
            self = .token(String(token))
            return
        }
        return nil
    }
}
