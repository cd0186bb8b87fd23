import Foundation
public import Hummingbird
import NIOFoundationEssentialsCompat
import RecordKit

/// Resolves the request's credential to its ``Principal``. A request without one goes on with
/// no principal (routes that serve data refuse it); one with a credential that matches nothing
/// is refused here with 401: an unknown token, or a server-to-server signature that does not
/// verify (unknown key ID, another body, path or date, a date more than 5 minutes off).
public struct CredentialMiddleware: RouterMiddleware {
    public typealias Context = ServiceRequestContext
    let tokens: TokenStore
    let keys: ServerKeyStore

    public init(tokens: TokenStore, keys: ServerKeyStore) {
        self.tokens = tokens
        self.keys = keys
    }

    public func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        guard let credential = Credential(request) else {
            return try await next(request, context)
        }
        var context = context
        var request = request
        switch credential {
        case .token(let text):
            context.principal = try await principal(for: text)
        case .serverSignature(let signature):
            // The signature covers the body: read it whole (within the limit of bodies read
            // whole, also on an upload URL, which streams larger ones) and keep it for the route.
            if let length = request.headers[.contentLength].flatMap({ Int($0) }), length > context.maxBufferedBodySize {
                throw ServiceError(
                    .contentTooLarge, code: .quotaExceeded,
                    "the request body is \(length) bytes; a signed request's body is read whole to check its signature, so it may carry at most \(context.maxBufferedBodySize) bytes; upload a larger asset with a token"
                )
            }
            let body = try await request.collectBody(upTo: context.maxBufferedBodySize)
            context.principal = try await principal(for: signature, body: Data(buffer: body), path: request.uri.path)
        }
        return try await next(request, context)
    }

    /// The principal of the token `text` (cached, or looked up on the blocking pool).
    ///
    /// - Throws: ``ServiceError`` 401 for a token that matches none, 503 when the accounts cannot be read.
    func principal(for text: String) async throws(ServiceError) -> Principal {
        guard let token = AccessToken(text) else { throw ServiceError.unknownCredential }
        if let principal = tokens.cachedPrincipal(for: token) { return principal }
        let tokens = self.tokens
        let principal = try await checking { () throws(RecordError) in try tokens.principal(for: token) }
        guard let principal else { throw ServiceError.unknownCredential }
        return principal
    }

    /// Whether the token `text` still names a principal: a stream (a subscription over SSE or a
    /// WebSocket) outlives the request that opened it, and asks before each event it sends, so
    /// a token revoked meanwhile gets nothing more (within ``TokenStore``'s second of caching).
    /// Accounts that cannot be read keep the stream; it asks again at its next event.
    func isStillValid(_ text: String) async -> Bool {
        do {
            _ = try await principal(for: text)
            return true
        } catch {
            return error.status != .unauthorized
        }
    }

    private func principal(for signature: ServerSignature, body: Data, path: String) async throws(ServiceError) -> Principal {
        let keys = self.keys
        // Looked up and verified on the blocking pool: the key is read from the accounts database.
        let outcome = try await checking { () throws(RecordError) -> Result<Void, ServerSignature.Refusal>? in
            guard let key = try keys.publicKey(keyID: signature.keyID) else { return nil }
            do throws(ServerSignature.Refusal) {
                try signature.verify(with: key, body: body, path: path)
                return .success(())
            } catch {
                return .failure(error)
            }
        }
        guard let outcome else {
            throw ServiceError(
                .unauthorized, code: .authenticationFailed, "no server-to-server key is registered as '\(signature.keyID)'; add it with: shop key add")
        }
        if case .failure(let refusal) = outcome {
            throw ServiceError(.unauthorized, code: .authenticationFailed, refusal.reason)
        }
        return Principal(.serverKey(id: signature.keyID))
    }

    /// `body` run on the blocking pool; a failure to read the accounts is 503.
    private func checking<T: Sendable>(_ body: @escaping @Sendable () throws(RecordError) -> T) async throws(ServiceError) -> T {
        do {
            return try await BlockingWork.run(body)
        } catch {
            throw ServiceError(.serviceUnavailable, code: .tryAgainLater, "the credential could not be checked: \(error.message); try again")
        }
    }
}
