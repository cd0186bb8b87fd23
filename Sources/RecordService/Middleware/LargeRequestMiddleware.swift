public import Hummingbird

/// Handles at most a few large requests at once — a JSON body (`Content-Type:
/// application/json`) of ``threshold`` bytes or more, by its `Content-Length` — across the whole
/// service: the body is read first, then the request waits for a place (``AdmissionGate``)
/// before its handler runs.
///
/// A large request is a batch write (500 aliased mutations, `records/modify` with hundreds of
/// operations, a list of records as a variable) whose parsed document, plan and results take
/// megabytes while it runs. SQLite runs one write transaction at a time, so admitting more of
/// them at once adds no throughput and multiplies the working set: eight at once took the
/// service from 77 to 121 MB resident. Reading the body before waiting keeps a slow sender
/// from holding a place while it trickles; only JSON bodies are read ahead, which their
/// handlers read whole anyway (an asset's upload streams to its file as before). A chunked
/// body (no `Content-Length`) goes straight on. Goes after ``BodyLimitMiddleware``, which sets
/// how much of a body is read, and after the credential and the database are resolved, so that
/// an unauthenticated flood of large bodies is refused before it queues ahead of real writes.
public struct LargeRequestMiddleware: RouterMiddleware {
    public typealias Context = ServiceRequestContext
    /// The smallest body, in bytes, that waits for a place.
    public static let threshold = 16 << 10
    let places: AdmissionGate

    /// Shares one gate of `places` places between every group the middleware is added to.
    init(places: AdmissionGate) {
        self.places = places
    }

    public func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        guard let length = request.headers[.contentLength].flatMap({ Int($0) }), length >= Self.threshold,
            request.headers[.contentType]?.lowercased().hasPrefix("application/json") == true
        else {
            return try await next(request, context)
        }
        var request = request
        _ = try await request.collectBody(upTo: context.maxUploadSize)
        return try await places.admitting { try await next(request, context) }
    }
}
