import HTTPTypes
import NIOCore
import NIOHTTPTypes

/// Answers `408 Request Timeout` and closes the connection when a request does not arrive whole
/// in time: its head within the read timeout of the connection opening (or of the previous
/// response), its body within the read timeout of its head. A client trickling its headers or
/// its body a byte at a time therefore holds a connection for at most twice the timeout, and
/// learns why it was dropped; the time a route takes to answer is not limited.
///
/// Hummingbird's own `idleTimeout` closes such connections without a word, so this handler sits
/// in its place among the HTTP/1 channel's additional handlers (after HTTP decoding, before the
/// request is handled). The 408 body has the shape of the API the path belongs to
/// (``ErrorRendering/of(path:)``); a connection whose request was already answered (a 413 sent
/// before the body) is just closed.
final class RequestReadTimeoutHandler: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPRequestPart
    typealias InboundOut = HTTPRequestPart
    typealias OutboundIn = HTTPResponsePart
    typealias OutboundOut = HTTPResponsePart

    /// The error the request's body stream fails with when its body did not arrive in time.
    struct Expired: Error {}

    private let timeout: TimeAmount
    /// The timeout as the 408's reason says it: "30 s", "1500 ms".
    private let timeoutText: String
    private var deadline: Scheduled<Void>?
    /// The head of the request being read: received, its end not yet.
    private var reading: HTTPRequest?
    /// Requests whose head arrived and whose response has not ended.
    private var unanswered = 0
    /// A response head was written and not yet its end.
    private var responding = false
    private var expired = false

    init(timeout: Duration) {
        let (seconds, attoseconds) = timeout.components
        let milliseconds = seconds * 1000 + attoseconds / 1_000_000_000_000_000
        self.timeout = .milliseconds(milliseconds)
        self.timeoutText = milliseconds % 1000 == 0 ? "\(milliseconds / 1000) s" : "\(milliseconds) ms"
    }

    func handlerAdded(context: ChannelHandlerContext) {
        if context.channel.isActive { arm(context) }
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        disarm()
    }

    func channelActive(context: ChannelHandlerContext) {
        arm(context)
        context.fireChannelActive()
    }

    func channelInactive(context: ChannelHandlerContext) {
        disarm()
        context.fireChannelInactive()
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard !expired else { return }
        switch unwrapInboundIn(data) {
        case .head(let head):
            reading = head
            unanswered += 1
            arm(context)
        case .body:
            break
        case .end:
            reading = nil
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
        case .head, .body:
            break
        case .end:
            responding = false
            unanswered = max(0, unanswered - 1)
            // Every request read is answered: the next one's head has the timeout to arrive.
            if unanswered == 0, reading == nil { arm(context) }
        }
        context.write(data, promise: promise)
    }

    private func arm(_ context: ChannelHandlerContext) {
        disarm()
        deadline = context.eventLoop.assumeIsolated().scheduleTask(in: timeout) { [self] in
            self.expire(context)
        }
    }

    private func disarm() {
        deadline?.cancel()
        deadline = nil
    }

    /// The head or the body did not arrive in time: 408 when the request has no answer yet, then
    /// the connection closes, failing the body stream a route may be reading.
    private func expire(_ context: ChannelHandlerContext) {
        deadline = nil
        let unansweredRequest = reading.map { _ in unanswered == 1 } ?? (unanswered == 0)
        if !responding, unansweredRequest {
            let part = reading == nil ? "headers" : "body"
            let error = ServiceError(
                .requestTimeout, code: .badRequest,
                "the request's \(part) did not arrive within \(timeoutText); send the whole request at once (the connection was closed)"
            )
            let (contentType, body) = ErrorRendering.of(path: reading?.path ?? "").rendered(error, accept: reading?.headerFields[.accept])
            let buffer = context.channel.allocator.buffer(string: body)
            let head = HTTPResponse(
                status: .requestTimeout,
                headerFields: [.contentType: contentType, .contentLength: "\(buffer.readableBytes)", .connection: "close"]
            )
            context.write(wrapOutboundOut(.head(head)), promise: nil)
            context.write(wrapOutboundOut(.body(buffer)), promise: nil)
            context.writeAndFlush(wrapOutboundOut(.end(nil)), promise: nil)
        }
        expired = true
        if reading != nil { context.fireErrorCaught(Expired()) }
        closeLingering(context)
    }

    /// Closes the way out first and the connection a moment later, discarding what the client
    /// still sends meanwhile: closing at once with bytes of its unread would reset the connection,
    /// and a reset can destroy the 408 before the client reads it.
    private func closeLingering(_ context: ChannelHandlerContext) {
        context.close(mode: .output, promise: nil)
        context.eventLoop.assumeIsolated().scheduleTask(in: Self.lingering) { context.close(promise: nil) }
    }

    /// How long a connection is kept, reading and discarding, after its 408.
    private static let lingering = TimeAmount.seconds(2)
}

@available(*, unavailable)
extension RequestReadTimeoutHandler: Sendable {}
