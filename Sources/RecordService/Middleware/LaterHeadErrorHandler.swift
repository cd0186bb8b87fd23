import Logging
import NIOCore
import NIOHTTP1
import NIOHTTPTypes

/// Answers a request head that cannot be read on a kept-alive connection, after its first
/// request (``FirstHeadErrorHandler`` answers the first), as that one is answered: `400 Bad
/// Request` saying what could not be read, logged under the request id the answer carries, and
/// the connection closed. Hummingbird would answer it with a bare `400` (no body, no log line).
///
/// A client may send its next request before the answer to the one before has been written
/// (pipelining): the 400 then waits for that answer's end, so the two never mix. A body the
/// parser cannot read (malformed chunks) is left to the route reading it, which answers 400
/// naming the problem (``ErrorRendering``); a connection that ends in the middle of a head is
/// answered nothing (a debug line). One of the HTTP/1 channel's additional handlers
/// (after HTTP decoding, before the request is handled).
final class LaterHeadErrorHandler: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPRequestPart
    typealias InboundOut = HTTPRequestPart
    typealias OutboundIn = HTTPResponsePart
    typealias OutboundOut = HTTPResponsePart

    private let logger: Logger
    private var requests = RequestsInFlight()
    /// The 400 waiting for the answer before it to end, and what could not be read.
    private var waiting: (answer: EarlyAnswer, unreadable: String)?
    /// The 400 was written: the connection is closing, and later parser errors are its echoes.
    private var answered = false

    init(logger: Logger) {
        self.logger = logger
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        requests.arrived(unwrapInboundIn(data))
        context.fireChannelRead(data)
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        guard let error = error as? HTTPParserError, !requests.isReading else {
            context.fireErrorCaught(error)
            return
        }
        guard !answered, waiting == nil else { return }
        guard error != .invalidEOFState else {
            logger.debug("connection ended in the middle of a request head")
            return
        }
        let answer = EarlyAnswer(unreadableHead: error)
        if requests.unanswered == 0 {
            send(answer, unreadable: error.debugDescription, context: context)
        } else {
            waiting = (answer, error.debugDescription)
        }
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        context.write(data, promise: promise)
        guard case .end = unwrapOutboundIn(data) else { return }
        requests.answered()
        if requests.unanswered == 0, let waiting {
            self.waiting = nil
            send(waiting.answer, unreadable: waiting.unreadable, context: context)
        }
    }

    /// Writes and logs the 400 (after the answers before it, as their log lines are), then closes.
    private func send(_ answer: EarlyAnswer, unreadable: String, context: ChannelHandlerContext) {
        answered = true
        answer.log(to: logger, unreadable: unreadable)
        for part in answer.parts(allocator: context.channel.allocator) { context.write(wrapOutboundOut(part), promise: nil) }
        context.flush()
        EarlyAnswer.closeLingering(context)
    }
}

@available(*, unavailable)
extension LaterHeadErrorHandler: Sendable {}
