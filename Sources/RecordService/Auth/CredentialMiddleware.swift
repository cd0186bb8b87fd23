public import Hummingbird
import RecordKit

/// Resolves the request's credential to its ``Principal``. A request without one goes on with
/// no principal (routes that serve data refuse it); one with a credential that matches nothing
/// is refused here with 401.
public struct CredentialMiddleware: RouterMiddleware {
    public typealias Context = ServiceRequestContext
    let tokens: TokenStore

    public init(tokens: TokenStore) {
        self.tokens = tokens
    }

    public func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        guard let credential = Credential(request) else {
            return try await next(request, context)
        }
        var context = context
        context.principal = try await principal(for: credential)
        return try await next(request, context)
    }

    private func principal(for credential: Credential) async throws(ServiceError) -> Principal {
        switch credential {
        case .token(let text):
            guard let token = AccessToken(text) else { throw ServiceError.unknownCredential }
            if let principal = tokens.cachedPrincipal(for: token) { return principal }
            let tokens = self.tokens
            let principal: Principal?
            do {
                principal = try await BlockingWork.run { () throws(RecordError) in try tokens.principal(for: token) }
            } catch {
                throw ServiceError(.serviceUnavailable, code: .tryAgainLater, "the credential could not be checked: \(error.message); try again")
            }
            guard let principal else { throw ServiceError.unknownCredential }
            return principal
        }
    }
}
