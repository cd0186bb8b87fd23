public import Hummingbird

/// Sets the largest body routes read, and refuses with 413 a request whose `Content-Length`
/// says it is larger, before reading any of it. A chunked body past the limit gets 413 from
/// `collectBody(upTo:)` as soon as the limit is passed.
///
/// The asset upload URLs take more (``upload(limit:bufferedLimit:)``): their route streams the
/// body to a file, so a body as large as an asset costs no memory. Only a signed request's body
/// is read whole (its signature covers it): that stays within the request limit everywhere.
public struct BodyLimitMiddleware: RouterMiddleware {
    public typealias Context = ServiceRequestContext
    /// The largest body the routes take.
    let limit: Int
    /// The largest body read into memory whole.
    let bufferedLimit: Int
    /// What a body is on these routes, as the 413 names it and its limit.
    private let bodies: Bodies

    private enum Bodies {
        /// Requests whose routes read their bodies whole.
        case requests
        /// Asset uploads, streamed to a file.
        case assetUploads
    }

    /// The limit of routes that read their bodies whole: `limit` bytes.
    public init(limit: Int) {
        self.init(limit: limit, bufferedLimit: limit, bodies: .requests)
    }

    private init(limit: Int, bufferedLimit: Int, bodies: Bodies) {
        self.limit = limit
        self.bufferedLimit = bufferedLimit
        self.bodies = bodies
    }

    /// The limit of an asset's upload URL, whose route streams the body to a file: bodies up to
    /// `limit` bytes (the most an asset holds), read into memory whole only up to
    /// `bufferedLimit` (the request limit).
    public static func upload(limit: Int, bufferedLimit: Int) -> Self {
        Self(limit: limit, bufferedLimit: bufferedLimit, bodies: .assetUploads)
    }

    public func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        if let length = request.headers[.contentLength].flatMap({ Int($0) }), length > limit {
            throw ServiceError(.contentTooLarge, code: .quotaExceeded, refusal(length))
        }
        var context = context
        context.maxUploadSize = limit
        context.maxBufferedBodySize = bufferedLimit
        return try await next(request, context)
    }

    /// The 413's reason for a body of `length` bytes.
    private func refusal(_ length: Int) -> String {
        switch bodies {
        case .requests: "the request body is \(length) bytes; this service accepts at most \(limit) bytes per request"
        case .assetUploads: "the upload is \(length) bytes; an asset holds at most \(limit) bytes; upload a smaller file"
        }
    }
}
