import Logging
import NIOCore
import NIOHTTP1

/// Answers `400 Bad Request`, saying what could not be read, and closes the connection when a
/// connection's first request head cannot be decoded (not HTTP, a malformed header line, headers
/// past the size limit): the GraphQL WebSocket upgrade's pipeline has no HTTP error handling of
/// its own before it decides between HTTP and a WebSocket. It sits right after the HTTP decoder
/// and leaves once the first head has passed it (``LaterHeadErrorHandler`` answers the heads
/// after it). The refusal is logged like any answered request (``EarlyAnswer/log(to:unreadable:)``)
/// under a new request id that the answer carries too (`X-Request-ID`, and the error's `uuid`).
/// A connection that ends in the middle of its first head (the client gave up, or
/// ``FirstHeadTimeoutHandler`` answered 408 and closed it) can be answered nothing: a debug line.
///
/// `firstHead` tells the connection's handler whether a first request came: it succeeds when a
/// head passes, and fails when the head could not be read or the connection ended first.
final class FirstHeadErrorHandler: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias OutboundOut = HTTPServerResponsePart

    private let logger: Logger
    private let firstHead: EventLoopPromise<Void>
    private var firstHeadSettled = false

    init(logger: Logger, firstHead: EventLoopPromise<Void>) {
        self.logger = logger
        self.firstHead = firstHead
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        settleFirstHead(.success(()))
        context.fireChannelRead(data)
        context.pipeline.syncOperations.removeHandler(context: context, promise: nil)
    }

    /// Removed before a head came: the connection closed (a pipeline's handlers are removed
    /// when its channel closes).
    func handlerRemoved(context: ChannelHandlerContext) {
        settleFirstHead(.failure(ChannelError.inputClosed))
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        guard let error = error as? HTTPParserError else {
            context.fireErrorCaught(error)
            return
        }
        settleFirstHead(.failure(error))
        guard error != .invalidEOFState else {
            logger.debug("connection ended in the middle of its first request head")
            return
        }
        let answer = EarlyAnswer(unreadableHead: error)
        answer.log(to: logger, unreadable: error.debugDescription)
        for part in answer.http1Parts(allocator: context.channel.allocator) { context.write(wrapOutboundOut(part), promise: nil) }
        context.flush()
        EarlyAnswer.closeLingering(context)
    }
}

extension FirstHeadErrorHandler {
    /// Completes `firstHead` once: what came first decides.
    private func settleFirstHead(_ outcome: Result<Void, any Error>) {
        guard !firstHeadSettled else { return }
        firstHeadSettled = true
        firstHead.completeWith(outcome)
    }

}

@available(*, unavailable)
extension FirstHeadErrorHandler: Sendable {}
