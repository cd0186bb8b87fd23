import Foundation
import HTTPTypes
public import Hummingbird

/// Gives each request an id: the client's `X-Request-ID` when it sent a sensible one, else a new
/// one; it is echoed on the response and named in the request's log line.
public struct RequestIDMiddleware: RouterMiddleware {
    public typealias Context = ServiceRequestContext

    public init() {}

    public func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        var context = context
        context.requestID = Self.acceptedID(request.headers[.xRequestID]) ?? UUID().uuidString.lowercased()
        var response = try await next(request, context)
        response.headers[.xRequestID] = context.requestID
        return response
    }

    /// The client's id when it is 1 to 200 visible ASCII characters (it goes into logs and headers).
    static func acceptedID(_ id: String?) -> String? {
        guard let id, !id.isEmpty, id.utf8.count <= 200, id.utf8.allSatisfy({ (33...126).contains($0) }) else { return nil }
        return id
    }
}

extension HTTPField.Name {
    static let xRequestID = HTTPField.Name("X-Request-ID")!
}
