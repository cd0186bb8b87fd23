import Foundation
public import Hummingbird
public import Logging

/// Writes one structured line per request once it is answered: method, path (never the query,
/// which may hold a token), status, duration and request id.
public struct RequestLogMiddleware: RouterMiddleware {
    public typealias Context = ServiceRequestContext
    let logger: Logger

    public init(logger: Logger) {
        self.logger = logger
    }

    public func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        let start = ContinuousClock.now
        do {
            let response = try await next(request, context)
            log(request, context: context, status: Int(response.status.code), since: start)
            return response
        } catch {
            let status = (error as? any HTTPResponseError)?.status.code ?? 500
            log(request, context: context, status: Int(status), since: start)
            throw error
        }
    }

    private func log(_ request: Request, context: Context, status: Int, since start: ContinuousClock.Instant) {
        let elapsed = ContinuousClock.now - start
        let milliseconds = Double(elapsed.components.seconds) * 1000 + Double(elapsed.components.attoseconds) / 1e15
        logger.info(
            "request",
            metadata: [
                "method": .string(request.method.rawValue),
                "path": .string(request.uri.path),
                "status": .stringConvertible(status),
                "duration_ms": .string(String(format: "%.3f", milliseconds)),
                "request_id": .string(context.requestID),
            ]
        )
    }
}
