import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1
import NIOHTTPCompression
import NIOPosix
import NIOSSL
import RecordKit

/// One request to the server: its method, URL, JSON body, and for a write the transaction ID
/// that every attempt sends as `Idempotency-Key`.
struct ServerRequest: Sendable {
    var method: HTTPMethod
    var url: String
    var body: Data?
    var transactionID: String?
}

/// The server's answer to a ``ServerRequest``.
struct ServerResponse: Sendable {
    var status: Int
    var body: Data
    /// `Idempotent-Replayed: true`: the stored result of a transaction that ran before.
    var isReplay: Bool
}

/// HTTP to one `shop serve`, through async-http-client: a pool of kept-alive connections,
/// connect and read timeouts, TLS for https:// URLs (trusting the system's authorities and
/// those of ``ServerSettings/trustedCertificates``).
///
/// ``send(_:)`` retries a request whose connection failed or dropped, with backoff
/// (``RetrySchedule``), until the retry budget is spent: a write with the same transaction ID, so
/// that the server applies it once and answers a retry with its stored result. Each retry is
/// reported on standard error; Ctrl-C (``Interruption``) abandons the request.
final class ServerConnection {
    /// Where requests go; the container may change once, when the server names its own.
    var settings: ServerSettings
    let client: HTTPClient
    /// The executor of a script's commands: the client's event loop, where the answers arrive.
    let executor = EventLoopTaskExecutor(eventLoop: ServerConnection.eventLoopGroup.next())
    private let interruption: Interruption
    private let console: Console
    /// Whether the server has answered once: before that, a refused connection means a wrong
    /// URL or a server that is not running, and is not retried.
    private var hasAnswered = false

    init(settings: ServerSettings, interruption: Interruption, console: Console) {
        self.settings = settings
        self.interruption = interruption
        self.console = console
        var configuration = HTTPClient.Configuration()
        configuration.timeout = HTTPClient.Configuration.Timeout(
            connect: .seconds(5), read: TimeAmount.milliseconds(settings.requestTimeout.milliseconds))
        var pool = HTTPClient.Configuration.ConnectionPool(idleTimeout: .seconds(60), concurrentHTTP1ConnectionsPerHostSoftLimit: 4)
        // A failed connection attempt is this client's to retry (and to report), not the pool's.
        pool.retryConnectionEstablishment = false
        configuration.connectionPool = pool
        configuration.redirectConfiguration = .disallow
        // No tracing: by default the client starts a span per request with the process's
        // tracer (a no-op one here), naming its attributes each time (4% of a script's CPU).
        configuration.tracing.tracer = nil
        // Answers of 1 KiB or more come gzipped (a page of records about a tenth of its size).
        configuration.decompression = .enabled(limit: .size(Self.maximumResponseSize))
        if !settings.trustedCertificates.isEmpty {
            var tls = TLSConfiguration.makeClientConfiguration()
            tls.additionalTrustRoots = [.certificates(settings.trustedCertificates)]
            configuration.tlsConfiguration = tls
        }
        client = HTTPClient(eventLoopGroupProvider: .shared(Self.eventLoopGroup), configuration: configuration)
    }

    /// The client's one event loop thread. A script's commands run on it too (``executor``): a
    /// command and the request it sends then take turns on one thread instead of handing each
    /// request and each answer between NIO's thread and Swift's pool.
    static let eventLoopGroup = MultiThreadedEventLoopGroup(numberOfThreads: 1)

    /// Closes the pool's connections.
    func close() async {
        try? await client.shutdown()
    }

    /// Sends `request` until the server answers, retrying failed and dropped connections and
    /// the answers that stand for them (``TransportFailure/answered(_:transactionID:)``).
    ///
    /// - Throws: ``RecordError`` `internalError` naming the URL and what to do when the server
    ///   cannot be reached, the retries ran out, or Ctrl-C abandoned them.
    func send(_ request: ServerRequest) async throws(RecordError) -> ServerResponse {
        var schedule = RetrySchedule(budget: settings.retryBudget)
        var attempt = 1
        var lastFailure: TransportFailure?
        while true {
            let failure: TransportFailure
            do {
                let response = try await attemptOnce(request)
                hasAnswered = true
                if let answered = TransportFailure.answered(response.status, transactionID: request.transactionID) {
                    failure = answered
                } else {
                    if let lastFailure { reportRecovery(request, response: response, after: lastFailure, attempts: attempt) }
                    return response
                }
            } catch is Abandoned {
                throw abandoned(request)
            } catch {
                failure = TransportFailure(error)
            }
            if failure == .refused, !hasAnswered {
                throw RecordError(
                    .internalError,
                    "cannot reach the server at \(settings.url) (\(failure.account)); check that shop serve is running there and that the URL is right")
            }
            let otherScheme = ServerSettings.otherScheme(of: settings.url)
            if failure == .dropped, !hasAnswered, attempt == 1, !ServerSettings.isSecure(settings.url), await speaksTLS(at: otherScheme) {
                throw RecordError(.internalError, "the server at \(settings.url) hung up without answering: it speaks TLS there; use \(otherScheme)")
            }
            guard failure.isRetryable else {
                if failure == .tls(TransportFailure.notTLS) {
                    throw RecordError(.internalError, "the server at \(settings.url) does not speak TLS there; use \(otherScheme)")
                }
                throw RecordError(
                    .internalError,
                    "cannot talk to the server at \(settings.url): \(failure.account); check the URL's scheme and the server's "
                        + "certificate (a certificate from a private authority is trusted with SSL_CERT_FILE=AUTHORITY.pem)")
            }
            guard let wait = schedule.next() else { throw exhausted(request, failure: failure, elapsed: schedule.elapsed) }
            lastFailure = failure
            attempt += 1
            console.writeError(
                "shop: \(failure.account) (\(settings.url)); retrying in \(Self.seconds(wait))"
                    + (request.transactionID.map { " with the same transaction ID \($0)" } ?? "") + ", attempt \(attempt)\n")
            do {
                try await sleep(wait)
            } catch {
                throw abandoned(request)
            }
        }
    }

    /// Ctrl-C while a request was under way or waiting to be retried.
    private struct Abandoned: Error {}

    /// One attempt, abandoned when Ctrl-C is pressed while it is under way: the interruption
    /// cancels the HTTP request itself (as cancelling the task does), so waiting for the answer
    /// costs no timer.
    private func attemptOnce(_ request: ServerRequest) async throws -> ServerResponse {
        var http = try madeRequest(request.method, request.url)
        http.headers = headers(for: request)
        http.body = request.body.map { .bytes($0) }
        let exchange = client.execute(
            request: http, delegate: ResponseAccumulator(request: http, maxBodySize: Self.maximumResponseSize),
            eventLoop: .delegateAndChannel(on: executor.eventLoop),
            deadline: .now() + .milliseconds(settings.requestTimeout.milliseconds))
        do {
            let response = try await value(of: exchange.futureResult) { exchange.cancel() }
            return ServerResponse(
                status: Int(response.status.code), body: response.body.map { Data($0.readableBytesView) } ?? Data(),
                isReplay: response.headers.first(name: "Idempotent-Replayed")?.lowercased() == "true")
        } catch {
            if interruption.isRequested { throw Abandoned() }
            throw error
        }
    }

    /// The request to `url` with `method`, without headers or body: made once for each of the
    /// few endpoints a session calls (making one parses and takes apart its URL, a twentieth of
    /// a command's time), then copied for each attempt.
    private func madeRequest(_ method: HTTPMethod, _ url: String) throws -> HTTPClient.Request {
        let key = MadeRequestKey(method: method.rawValue, url: url)
        if let made = madeRequests.value(for: key) { return made }
        let made = try HTTPClient.Request(url: url, method: method)
        madeRequests.store(made, for: key)
        return made
    }

    private struct MadeRequestKey: Hashable, Sendable {
        var method: String
        var url: String
    }

    /// Requests made before (``madeRequest(_:_:)``), by method and URL: more than the endpoints a
    /// session calls.
    private let madeRequests = BoundedCache<MadeRequestKey, HTTPClient.Request>(capacity: 32)

    /// Whether the server answers `url` (the https:// form of the http:// URL that was hung up
    /// on) over TLS, as a TLS-only port hangs up on plain HTTP: any answer there, or a TLS
    /// failure other than a plain-HTTP answer (a certificate refused), says it does. Asked once,
    /// when the first request's connection drops.
    private func speaksTLS(at url: String) async -> Bool {
        guard let probe = try? HTTPClient.Request(url: url + "/health", method: .GET) else { return false }
        do {
            _ = try await client.execute(request: probe, deadline: .now() + .seconds(3)).get()
            return true
        } catch {
            if case .tls(let reason) = TransportFailure(error) { return reason != TransportFailure.notTLS }
            return false
        }
    }

    /// The largest answer read: a response limit far above the service's own.
    static let maximumResponseSize = 512 << 20

    /// The headers of `request`: what it accepts (gzip too), the token, its transaction ID, its
    /// body's type.
    func headers(for request: ServerRequest) -> HTTPHeaders {
        var headers = HTTPHeaders()
        // GraphQL's own response type for GraphQL (the server answers it without parsing the
        // header), JSON for the other endpoints.
        headers.add(name: "Accept", value: request.url.hasSuffix("/graphql") ? "application/graphql-response+json" : "application/json")
        headers.add(name: "Accept-Encoding", value: "gzip")
        headers.add(name: "User-Agent", value: "shop/\(ShopVersion.current)")
        if let token = settings.token { headers.add(name: "Authorization", value: "Bearer \(token)") }
        if let id = request.transactionID { headers.add(name: "Idempotency-Key", value: id) }
        if request.body != nil { headers.add(name: "Content-Type", value: "application/json") }
        return headers
    }

    /// Sleeps `duration` on the client's event loop, throwing when Ctrl-C is pressed meanwhile.
    private func sleep(_ duration: Duration) async throws {
        let timer = executor.eventLoop.scheduleTask(in: .milliseconds(duration.milliseconds)) {}
        try await value(of: timer.futureResult) { timer.cancel() }
    }

    /// The value of `future`, which `cancel` ends early (it then throws): when Ctrl-C is pressed
    /// (``Interruption/cancelling(_:during:)``) or the task is cancelled.
    private func value<T: Sendable>(of future: EventLoopFuture<T>, cancel: @escaping @Sendable () -> Void) async throws -> T {
        try await interruption.cancelling(cancel) {
            try await withTaskCancellationHandler {
                try await future.get()
            } onCancel: {
                cancel()
            }
        }
    }

    private func reportRecovery(_ request: ServerRequest, response: ServerResponse, after failure: TransportFailure, attempts: Int) {
        let outcome: String
        if request.transactionID == nil {
            outcome = "the server answered attempt \(attempts)"
        } else if response.isReplay {
            outcome = "the server had applied the write once already; its stored result follows"
        } else {
            outcome = "the server applied the write on attempt \(attempts) (the earlier attempts never reached it)"
        }
        console.writeError("shop: \(outcome)\n")
    }

    /// Ctrl-C abandoned `request`: says so on standard error (the runner then reports the
    /// cancelled command), naming the transaction ID of a write to check.
    private func abandoned(_ request: ServerRequest) -> RecordError {
        let account =
            request.transactionID.map {
                "the write to \(settings.url) was abandoned; it may have been applied: check with: transaction show \($0)"
            } ?? "the request to \(settings.url) was abandoned"
        console.writeError("shop: interrupted: \(account)\n")
        return RecordError(.internalError, "interrupted: \(account)")
    }

    private func exhausted(_ request: ServerRequest, failure: TransportFailure, elapsed: Duration) -> RecordError {
        let write = request.transactionID.map { "; the write may have been applied: once the server answers, check with: transaction show \($0)" } ?? ""
        return RecordError(
            .internalError,
            "gave up after \(Self.seconds(elapsed)) of retries: \(failure.account) (\(settings.url)); check that the server is running and reachable\(write)")
    }

    private static func seconds(_ duration: Duration) -> String {
        String(format: "%.1f s", Double(duration.milliseconds) / 1000)
    }
}

extension Duration {
    /// The duration in whole milliseconds.
    var milliseconds: Int64 {
        components.seconds * 1000 + components.attoseconds / 1_000_000_000_000_000
    }
}
