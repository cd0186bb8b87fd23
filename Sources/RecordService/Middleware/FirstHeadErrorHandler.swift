import HTTPTypes
import Logging
import NIOCore
import NIOHTTP1

/// Answers `400 Bad Request`, saying what could not be read, and closes the connection when a
/// connection's first request head cannot be decoded (not HTTP, a malformed header line, headers
/// past the size limit): the GraphQL WebSocket upgrade's pipeline has no HTTP error handling of
/// its own before it decides between HTTP and a WebSocket. It sits right after the HTTP decoder and leaves once the first head has passed it.
/// The refusal is logged like any answered request (``RequestLogMiddleware``'s line, with
/// what could not be read in place of the method and path, which were never read), under a new
/// request id that the answer carries too (`X-Request-ID`, and the error's `uuid`). A connection
/// that ends in the middle of its first head (the client gave up, or ``FirstHeadTimeoutHandler``
/// answered 408 and closed it) can be answered nothing: a debug line.
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
        let answer = EarlyAnswer(Self.refusal(error))
        answer.log(to: logger, unreadable: error.debugDescription)
        let head = HTTPResponseHead(
            version: .http1_1, status: .badRequest, headers: HTTPHeaders(answer.headerFields.map { ($0.name.rawName, $0.value) }))
        context.write(wrapOutboundOut(.head(head)), promise: nil)
        context.write(wrapOutboundOut(.body(.byteBuffer(context.channel.allocator.buffer(string: answer.body)))), promise: nil)
        context.writeAndFlush(wrapOutboundOut(.end(nil)), promise: nil)
        // The way out closes after the answer; the connection a moment later (at once, unread
        // bytes could reset it before the client reads the 400).
        context.close(mode: .output, promise: nil)
        _ = context.eventLoop.assumeIsolated().scheduleTask(in: .seconds(2)) { context.close(promise: nil) }
    }
}

extension FirstHeadErrorHandler {
    /// Completes `firstHead` once: what came first decides.
    private func settleFirstHead(_ outcome: Result<Void, any Error>) {
        guard !firstHeadSettled else { return }
        firstHeadSettled = true
        firstHead.completeWith(outcome)
    }

    /// The 400's error: what the parser could not read, and what a request must look like.
    static func refusal(_ error: HTTPParserError) -> ServiceError {
        let reason =
            switch error {
            case .headerOverflow: "the request's headers pass 80 KiB; send fewer or shorter headers"
            default:
                "the request is not HTTP/1.1 (\(error.debugDescription)); send a request line (METHOD PATH HTTP/1.1), "
                    + "then header lines (NAME: VALUE), then an empty line"
            }
        return ServiceError(.badRequest, code: .badRequest, reason + " (the connection was closed)")
    }
}

@available(*, unavailable)
extension FirstHeadErrorHandler: Sendable {}
