import Logging
import NIOCore

/// The read timeout of a connection's first request head, before HTTP decoding: the GraphQL
/// WebSocket upgrade decides between HTTP and a WebSocket on that head, and only then adds
/// ``RequestReadTimeoutHandler`` (which times every later head and body). A connection whose
/// first head does not arrive whole within the timeout gets `408 Request Timeout` and is
/// closed, as ``RequestReadTimeoutHandler`` answers; once the head is in, this handler leaves
/// the pipeline. A head that began to arrive is logged as a request (``RequestLogMiddleware``'s
/// line, with what could not be read in place of the method and path); a connection that sent
/// nothing is not (an idle connection is no request).
final class FirstHeadTimeoutHandler: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = ByteBuffer
    typealias InboundOut = ByteBuffer
    typealias OutboundOut = ByteBuffer

    private let timeout: ReadTimeout
    private let logger: Logger
    private var deadline: Scheduled<Void>?
    /// The last bytes read, to find the blank line that ends the head across reads.
    private var tail: [UInt8] = []
    private var expired = false

    init(timeout: Duration, logger: Logger) {
        self.timeout = ReadTimeout(timeout)
        self.logger = logger
    }

    func handlerAdded(context: ChannelHandlerContext) {
        if context.channel.isActive { arm(context) }
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        deadline?.cancel()
    }

    func channelActive(context: ChannelHandlerContext) {
        arm(context)
        context.fireChannelActive()
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard !expired else { return }
        let buffer = unwrapInboundIn(data)
        tail += buffer.readableBytesView
        let ended = tail.count >= 4 && tail.indices.dropLast(3).contains { tail[$0..<$0 + 4].elementsEqual([13, 10, 13, 10]) }
        tail = Array(tail.suffix(3))
        context.fireChannelRead(data)
        if ended {
            deadline?.cancel()
            context.pipeline.syncOperations.removeHandler(context: context, promise: nil)
        }
    }

    private func arm(_ context: ChannelHandlerContext) {
        deadline?.cancel()
        deadline = context.eventLoop.assumeIsolated().scheduleTask(in: timeout.amount) { [self] in
            self.expire(context)
        }
    }

    /// The head did not arrive in time: 408, and the connection closes.
    private func expire(_ context: ChannelHandlerContext) {
        expired = true
        let answer = EarlyAnswer(timeout.headersError)
        // Bytes kept in `tail`: some of the head arrived.
        if !tail.isEmpty { answer.log(to: logger, unreadable: timeout.headersError.reason) }
        context.writeAndFlush(wrapOutboundOut(answer.bytes(allocator: context.channel.allocator)), promise: nil)
        EarlyAnswer.closeLingering(context)
    }
}

@available(*, unavailable)
extension FirstHeadTimeoutHandler: Sendable {}
