import HTTPTypes
import Hummingbird
import NIOCore
import NIOHTTPTypes

/// Answers `408 Request Timeout` and closes the connection when a request does not arrive whole
/// in time: its body within the read timeout of its head and a second more for each 64 KiB its
/// `Content-Length` declares (``ReadTimeout/bodyAllowance(length:)``: a 64 MiB asset over a
/// slow link has about 17 minutes), and no part of it more than the read timeout after the one
/// before. A kept-alive connection whose next request does not begin within the read timeout of
/// the previous response is closed without a word, as an idle connection is (a 408 there would
/// race with a client reusing the connection and be read as the answer to its next request). A
/// client trickling a small body a byte at a time therefore holds a connection for about twice
/// the timeout, and learns why it was dropped; the time a route takes to answer is not limited.
/// (The connection's first head is timed before HTTP decoding, by ``FirstHeadTimeoutHandler``.)
///
/// A request's id is decided here, as its head passes: the client's `X-Request-ID` when
/// ``RequestIDMiddleware`` accepts it, else a new one put in its place. The 408 written here and
/// the route's log line for the same request (which says 408 too) then name one id.
///
/// Hummingbird's own `idleTimeout` closes a connection trickling its body without a word, so this handler sits
/// in its place among the HTTP/1 channel's additional handlers (after HTTP decoding, before the
/// request is handled). The 408 body has the shape of the API the path belongs to
/// (``ErrorRendering/of(path:)``); a connection whose request was already answered (a 413 sent
/// before the body) is just closed.
final class RequestReadTimeoutHandler: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPRequestPart
    typealias InboundOut = HTTPRequestPart
    typealias OutboundIn = HTTPResponsePart
    typealias OutboundOut = HTTPResponsePart

    /// The error the request's body stream fails with when its body did not arrive in time: the
    /// route reading it ends with the status the client was answered, so the request's log line
    /// and metrics say 408 (the answer itself is written here, before the connection closes).
    struct Expired: HTTPResponseError {
        var status: HTTPResponse.Status { .requestTimeout }

        func response(from request: Request, context: some RequestContext) throws -> Response {
            Response(status: status)
        }
    }

    private let timeout: ReadTimeout
    /// When the read being timed runs out of time; `nil` while nothing is timed.
    private var expiry: NIODeadline?
    /// The one timer that checks ``expiry``, moved on when it fires before it. Arming and
    /// disarming set only ``expiry``: a timer scheduled and cancelled for each, three times
    /// a request, was 3% of the server's CPU under the canonical query's load.
    private var timer: Scheduled<Void>?
    /// The head of the request being read: received, its end not yet.
    private var reading: HTTPRequest?
    /// The length its head declares, `nil` for a chunked body.
    private var declaredLength: Int?
    /// When the body being read runs out of its whole allowance.
    private var bodyDeadline: NIODeadline?
    private var requests = RequestsInFlight()
    /// A response head was written and not yet its end.
    private var responding = false
    private var expired = false

    init(timeout: Duration) {
        self.timeout = ReadTimeout(timeout)
    }

    func handlerAdded(context: ChannelHandlerContext) {
        if context.channel.isActive { arm(context) }
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        stopTiming()
    }

    func channelActive(context: ChannelHandlerContext) {
        arm(context)
        context.fireChannelActive()
    }

    func channelInactive(context: ChannelHandlerContext) {
        stopTiming()
        context.fireChannelInactive()
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard !expired else { return }
        var data = data
        let part = unwrapInboundIn(data)
        requests.arrived(part)
        switch part {
        case .head(var head):
            if RequestIDMiddleware.acceptedID(head.headerFields[.xRequestID]) == nil {
                head.headerFields[.xRequestID] = RequestIDMiddleware.generatedID()
                data = wrapInboundOut(.head(head))
            }
            reading = head
            declaredLength = head.headerFields[.contentLength].flatMap { Int($0) }
            let now = NIODeadline.now()
            let bodyDeadline = now + timeout.bodyAllowance(length: declaredLength)
            self.bodyDeadline = bodyDeadline
            arm(context, until: min(bodyDeadline, now + timeout.amount))
        case .body:
            // The body moves: the next part has the timeout to come, within the whole allowance.
            if let bodyDeadline { expiry = min(bodyDeadline, .now() + timeout.amount) }
        case .end:
            reading = nil
            bodyDeadline = nil
            disarm()
        }
        context.fireChannelRead(data)
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        guard !expired else {
            promise?.fail(ChannelError.ioOnClosedChannel)
            return
        }
        switch unwrapOutboundIn(data) {
        case .head(let head) where head.status.kind != .informational:
            responding = true
            // Answered before its body ended (a 413, a 401): the rest only gets the timeout.
            if let bodyDeadline { self.bodyDeadline = min(bodyDeadline, .now() + timeout.amount) }
        case .head, .body:
            break
        case .end:
            responding = false
            requests.answered()
            // Every request read is answered: the next one's head has the timeout to arrive.
            if requests.unanswered == 0, !requests.isReading { arm(context) }
        }
        context.write(data, promise: promise)
    }

    /// Times the read until `expiry` (the read timeout from now when `nil`).
    private func arm(_ context: ChannelHandlerContext, until expiry: NIODeadline? = nil) {
        let expiry = expiry ?? .now() + timeout.amount
        self.expiry = expiry
        if timer == nil { check(context, at: expiry) }
    }

    private func disarm() {
        expiry = nil
    }

    /// Schedules the timer to look at ``expiry`` at `deadline`: expired then, or disarmed (the
    /// timer stops), or armed again later (it looks again then).
    private func check(_ context: ChannelHandlerContext, at deadline: NIODeadline) {
        timer = context.eventLoop.assumeIsolated().scheduleTask(deadline: deadline) { [self] in
            self.timer = nil
            guard let expiry = self.expiry else { return }
            if expiry <= .now() {
                self.expire(context)
            } else {
                self.check(context, at: expiry)
            }
        }
    }

    /// Nothing is timed any more, and the timer stops.
    private func stopTiming() {
        expiry = nil
        timer?.cancel()
        timer = nil
    }

    /// The body did not arrive in time (in all, or it stalled): 408 when the request has no
    /// answer yet, then the connection closes, failing the body stream a route may be reading.
    /// No request begun in time on a kept-alive connection: it closes at once.
    private func expire(_ context: ChannelHandlerContext) {
        expiry = nil
        expired = true
        guard let reading else {
            context.close(promise: nil)
            return
        }
        if !responding, requests.unanswered == 1 {
            let stalled = bodyDeadline.map { $0 > .now() } ?? false
            let error = timeout.bodyError(length: declaredLength, stalled: stalled)
            let answer = EarlyAnswer(
                error, path: reading.path ?? "", accept: reading.headerFields[.accept],
                requestID: reading.headerFields[.xRequestID] ?? RequestIDMiddleware.generatedID())
            for part in answer.parts(allocator: context.channel.allocator) { context.write(wrapOutboundOut(part), promise: nil) }
            context.flush()
        }
        context.fireErrorCaught(Expired())
        EarlyAnswer.closeLingering(context)
    }
}

@available(*, unavailable)
extension RequestReadTimeoutHandler: Sendable {}
