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
            if let token = Self.plainBearerToken(authorization) {
                self = .token(token)
                return
            }
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

    /// The token of `Bearer TOKEN` spelled exactly so (nearly every client), read without
    /// splitting, lowercasing or trimming copies; `nil` for any other spelling, which the
    /// general rules read.
    static func plainBearerToken(_ authorization: String) -> String? {
        let prefix = "Bearer ".utf8
        let bytes = authorization.utf8
        guard bytes.count > prefix.count, bytes.starts(with: prefix) else { return nil }
        let token = bytes.dropFirst(prefix.count)
        func isBlank(_ byte: UInt8?) -> Bool { byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") }
        guard !isBlank(token.first), !isBlank(token.last) else { return nil }
        return String(Substring(token))
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
