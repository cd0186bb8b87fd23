import Hummingbird
import Metrics
import Prometheus
import Synchronization

/// Counts and times each request for `/metrics`, in the service's own registry, under the names
/// Hummingbird's `MetricsMiddleware` gives them (`hb_requests`, `http_server_request_duration`,
/// `hb_request_errors`, `http_server_active_requests`), so what reads one reads the other. The
/// service answers its errors as responses (rendered inside this middleware), so an error here is
/// an answer with a 4xx or 5xx status, counted under its status as `error_type`, as Hummingbird
/// counts an error thrown through it.
///
/// Hummingbird's middleware records once the body is written, and to know when, it wraps every
/// body in a closure: a body held in one buffer then loses `ResponseWriter`'s fast path, which
/// writes head, body and end to the channel at once, and goes out in three writes, each a hop
/// to the event loop. Every answer of this service but an event stream is one buffer, so this
/// middleware records when the handler returns; it waits for the body only when the body's
/// length is unknown (an event stream, written piece by piece anyway), so a stream counts as
/// active until it ends. `/graphql` serves 3–8% more requests a second for it (docs/bench.md).
struct RequestMetricsMiddleware: RouterMiddleware {
    typealias Context = ServiceRequestContext
    private let metrics: RequestMetrics

    init(registry: PrometheusCollectorRegistry) {
        metrics = RequestMetrics(factory: PrometheusMetricsFactory(registry: registry))
    }

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        let start = ContinuousClock.now
        let active = metrics.activeRequests(request.method)
        active.increment()
        var response: Response
        do {
            response = try await next(request, context)
        } catch {
            let status = (error as? any HTTPResponseError)?.status ?? .internalServerError
            metrics.endpoint(route: context.endpointPath ?? "NotFound", method: request.method, status: status).record(since: start)
            active.decrement()
            throw error
        }
        let endpoint = metrics.endpoint(route: context.endpointPath ?? "Unknown", method: request.method, status: response.status)
        guard response.body.contentLength == nil else {
            endpoint.record(since: start)
            active.decrement()
            return response
        }
        let body = response.body
        response.body = ResponseBody { writer in
            defer {
                endpoint.record(since: start)
                active.decrement()
            }
            try await body.write(writer)
        }
        return response
    }
}

/// The metrics of ``RequestMetricsMiddleware``, made once per method and per route, method and
/// status.
private final class RequestMetrics: Sendable {
    struct EndpointKey: Hashable {
        var route: String
        var method: HTTPRequest.Method
        var status: HTTPResponse.Status
    }

    /// A route's requests answered with one status: how many, how long, and, for an error status
    /// (4xx and 5xx), how many failed.
    struct Endpoint: Sendable {
        let requests: Metrics.Counter
        let duration: Metrics.Timer
        let errors: Metrics.Counter?

        func record(since start: ContinuousClock.Instant) {
            requests.increment()
            errors?.increment()
            let elapsed = (ContinuousClock.now - start).components
            duration.recordNanoseconds(elapsed.seconds * 1_000_000_000 + elapsed.attoseconds / 1_000_000_000)
        }
    }

    private let factory: any MetricsFactory
    private let active = Mutex<[HTTPRequest.Method: Metrics.Meter]>([:])
    private let endpoints = Mutex<[EndpointKey: Endpoint]>([:])

    init(factory: any MetricsFactory) {
        self.factory = factory
    }

    /// The requests of `method` in hand.
    func activeRequests(_ method: HTTPRequest.Method) -> Metrics.Meter {
        active.withLock { meters in
            if let meter = meters[method] { return meter }
            let meter = Metrics.Meter(label: "http.server.active_requests", dimensions: [("http.request.method", method.rawValue)], factory: factory)
            meters[method] = meter
            return meter
        }
    }

    func endpoint(route: String, method: HTTPRequest.Method, status: HTTPResponse.Status) -> Endpoint {
        let key = EndpointKey(route: route, method: method, status: status)
        return endpoints.withLock { endpoints in
            if let endpoint = endpoints[key] { return endpoint }
            let dimensions = [("http.route", route), ("http.request.method", method.rawValue)]
            let code = String(status.code)
            let endpoint = Endpoint(
                requests: Metrics.Counter(label: "hb.requests", dimensions: dimensions + [("http.response.status_code", code)], factory: factory),
                duration: Metrics.Timer(
                    label: "http.server.request.duration", dimensions: dimensions + [("http.response.status_code", code)],
                    preferredDisplayUnit: .seconds, factory: factory),
                errors: status.code >= 400
                    ? Metrics.Counter(label: "hb.request.errors", dimensions: dimensions + [("error.type", code)], factory: factory) : nil
            )
            endpoints[key] = endpoint
            return endpoint
        }
    }
}
