public import HTTPTypes
public import Hummingbird

/// What a request presents to say who it is.
public enum Credential: Sendable, Hashable {
    /// `Authorization: Bearer TOKEN`, or CloudKit's `ckAPIToken` / `ckWebAuthToken` query parameters.
    case token(String)
    /// CloudKit's server-to-server headers (``ServerSignature``).
    case serverSignature(ServerSignature)

    /// The credential `request` carries, `nil` when it carries none.
    public init?(_ request: Request) {
        if let keyID = request.headers[.cloudKitKeyID] {
            self = .serverSignature(
                ServerSignature(keyID: keyID, date: request.headers[.cloudKitDate] ?? "", signature: request.headers[.cloudKitSignature] ?? ""))
            return
        }
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

extension HTTPField.Name {
    /// CloudKit's server-to-server key ID header.
    public static let cloudKitKeyID = HTTPField.Name("X-Apple-CloudKit-Request-KeyID")!
    /// CloudKit's server-to-server date header.
    public static let cloudKitDate = HTTPField.Name("X-Apple-CloudKit-Request-ISO8601Date")!
    /// CloudKit's server-to-server signature header.
    public static let cloudKitSignature = HTTPField.Name("X-Apple-CloudKit-Request-SignatureV1")!
}
