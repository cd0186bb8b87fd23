public import Hummingbird

/// Lets only the listed origins through to the CORS middleware after it: a request whose
/// `Origin` is not listed goes on without it, so it gets no CORS headers and a browser keeps the
/// answer from the page (and a preflight is refused, 405). Requests without `Origin` (every
/// client but a browser's page) are untouched. Hummingbird's CORS middleware takes a list of
/// origins only as literal arguments, not a configured list.
struct OriginFilterMiddleware: RouterMiddleware {
    typealias Context = ServiceRequestContext
    /// Origins in lowercase.
    let allowed: Set<String>

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        guard let origin = request.headers[.origin], !allowed.contains(origin.lowercased()) else { return try await next(request, context) }
        var head = request.head
        head.headerFields[.origin] = nil
        return try await next(Request(head: head, body: request.body), context)
    }
}
