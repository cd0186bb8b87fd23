public import Hummingbird
import NIOHTTP1
import RecordKit

/// The shape an API gives its errors: GraphQL's `{"errors":[…]}` or CloudKit's
/// `{"uuid","serverErrorCode","reason"}`, whose `uuid` is the request's id (its `X-Request-ID`
/// and the `request_id` of its log line), so an error a client shows leads to the server's line;
/// an error telling when to try again (`Retry-After`) says it in CloudKit's `retryAfter` too.
public enum ErrorRendering: Sendable {
    case graphQL
    case cloudKit

    /// The response for `error` to the request `request` with id `requestID`, in this shape.
    public func response(for error: ServiceError, request: Request, requestID: String) -> Response {
        var headers = error.headers
        let (contentType, body) = rendered(error, accept: request.headers[.accept], requestID: requestID)
        headers[.contentType] = contentType
        return Response(status: error.status, headers: headers, body: .init(byteBuffer: ByteBuffer(string: body)))
    }

    /// The `Content-Type` and body of `error` in this shape, for the request with id `requestID`
    /// that sent `accept`.
    func rendered(_ error: ServiceError, accept: String?, requestID: String) -> (contentType: String, body: String) {
        switch self {
        case .graphQL:
            return (
                GraphQLMediaType.negotiate(accept).responseType ?? GraphQLMediaType.json.rawValue,
                "{\"errors\":[{\"message\":" + JSONText.string(error.reason) + ",\"extensions\":{\"code\":" + JSONText.string(error.code.rawValue) + "}}]}"
            )
        case .cloudKit:
            let retryAfter = error.headers[.retryAfter].flatMap { Int($0) }.map { ",\"retryAfter\":\($0)" } ?? ""
            return (
                "application/json",
                "{\"uuid\":" + JSONText.string(requestID) + ",\"serverErrorCode\":" + JSONText.string(error.code.rawValue)
                    + ",\"reason\":" + JSONText.string(error.reason) + retryAfter + "}"
            )
        }
    }

    /// The shape of the API a request path belongs to: GraphQL's for `/graphql` and
    /// `…/{database}/graphql`, CloudKit's for every other path (as an unknown path gets).
    static func of(path: String) -> ErrorRendering {
        let route = path.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
        return route == "/graphql" || route.hasSuffix("/graphql") ? .graphQL : .cloudKit
    }

    /// `error` as the service describes it: its own errors as they are, the engine's with their
    /// status, Hummingbird's (413 from a body past the limit) with theirs, a body that is not
    /// HTTP (malformed chunks, a connection ended before the body did) as 400, a request stopped
    /// before it finished as 503 (try again), anything else as 500.
    public static func serviceError(_ error: any Error) -> ServiceError {
        switch error {
        case let error as ServiceError:
            return error
        case let error as CloudKitError:
            return error.serviceError
        case let error as RecordError:
            return ServiceError(error)
        case let error as any HTTPResponseError where error.status == .contentTooLarge:
            return ServiceError(.contentTooLarge, code: .quotaExceeded, "the request body is larger than the service accepts; send less per request")
        case let error as any HTTPResponseError where error.status == .notFound:
            return ServiceError(.notFound, code: .notFound, "there is no such endpoint; GET /openapi.yaml describes them all")
        case let error as any HTTPResponseError:
            return ServiceError(error.status, code: error.status.code < 500 ? .badRequest : .internalError, "\(error.status.reasonPhrase)")
        case let error as HTTPParserError:
            return ServiceError(.badRequest, code: .badRequest, unreadableBody(error))
        case is CancellationError:
            return ServiceError(
                .serviceUnavailable, code: .tryAgainLater,
                "the request was stopped before it finished (the server is stopping, or the client went away); send it again: a write sent again with the same Idempotency-Key is applied once"
            )
        default:
            return ServiceError(.internalServerError, code: .internalError, "the request failed unexpectedly: \(error)")
        }
    }
}

extension ErrorRendering {
    /// What a body the HTTP parser could not read gets said of it; the connection closes after.
    static func unreadableBody(_ error: HTTPParserError) -> String {
        guard error != .invalidEOFState else {
            return "the connection ended before the request's body did; send the whole request (the connection was closed)"
        }
        return "the request's body is not HTTP/1.1 (\(error.debugDescription)); send it with a Content-Length, "
            + "or as chunks that each start with their size in hexadecimal (the connection was closed)"
    }
}

/// Renders every error a route of one API throws in that API's shape: errors become responses
/// in one place.
public struct ErrorRenderingMiddleware: RouterMiddleware {
    public typealias Context = ServiceRequestContext
    let rendering: ErrorRendering

    public init(_ rendering: ErrorRendering) {
        self.rendering = rendering
    }

    public func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        do {
            return try await next(request, context)
        } catch {
            return rendering.response(for: ErrorRendering.serviceError(error), request: request, requestID: context.requestID)
        }
    }
}
