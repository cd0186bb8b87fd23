import HTTPTypes
public import Hummingbird

/// Lets a web page's script read the service's own headers on an answer to it (a request with
/// `Origin`): `Access-Control-Expose-Headers` names them — the request id, whether a write was
/// replayed, why a credential was refused, when to try a login again. The CORS middleware of
/// Hummingbird names exposed headers on the preflight only, where the browser does not look.
struct ExposedHeadersMiddleware: RouterMiddleware {
    typealias Context = ServiceRequestContext

    private static let names = [HTTPField.Name.xRequestID, .idempotentReplayed, .wwwAuthenticate, .retryAfter, .allow]
        .map(\.canonicalName).joined(separator: ", ")

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        guard request.headers[.origin] != nil else { return try await next(request, context) }
        var response = try await next(request, context)
        response.headers[.accessControlExposeHeaders] = Self.names
        return response
    }
}
