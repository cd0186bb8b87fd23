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
        logger.info(
            "request",
            metadata: [
                "method": .string(request.method.rawValue),
                "path": .string(request.uri.path),
                "status": .stringConvertible(status),
                "duration_ms": .string(Self.milliseconds(ContinuousClock.now - start)),
                "request_id": .string(context.requestID),
            ]
        )
    }

    /// `duration` in milliseconds with three decimals (`12.345`), without `String(format:)`,
    /// which goes through Foundation's formatter on every request.
    static func milliseconds(_ duration: Duration) -> String {
        let (seconds, attoseconds) = duration.components
        let microseconds = max(0, seconds * 1_000_000 + attoseconds / 1_000_000_000_000)
        let fraction = String(microseconds % 1000)
        return String(microseconds / 1000) + "." + String(repeating: "0", count: 3 - fraction.count) + fraction
    }
}
