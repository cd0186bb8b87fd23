public import Hummingbird

/// Sets the largest body routes read, and refuses with 413 a request whose `Content-Length`
/// says it is larger, before reading any of it. A chunked body past the limit gets 413 from
/// `collectBody(upTo:)` as soon as the limit is passed.
public struct BodyLimitMiddleware: RouterMiddleware {
    public typealias Context = ServiceRequestContext
    let limit: Int

    public init(limit: Int) {
        self.limit = limit
    }

    public func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        if let length = request.headers[.contentLength].flatMap({ Int($0) }), length > limit {
            throw ServiceError(
                .contentTooLarge, code: .quotaExceeded,
                "the request body is \(length) bytes; this service accepts at most \(limit) bytes per request"
            )
        }
        var context = context
        context.maxUploadSize = limit
        return try await next(request, context)
    }
}
