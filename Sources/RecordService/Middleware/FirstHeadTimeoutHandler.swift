import HTTPTypes
import NIOCore

/// The read timeout of a connection's first request head, before HTTP decoding: the GraphQL
/// WebSocket upgrade decides between HTTP and a WebSocket on that head, and only then adds
/// ``RequestReadTimeoutHandler`` (which times every later head and body). A connection whose
/// first head does not arrive whole within the timeout gets `408 Request Timeout` and is
/// closed, as ``RequestReadTimeoutHandler`` answers; once the head is in, this handler leaves
/// the pipeline.
final class FirstHeadTimeoutHandler: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = ByteBuffer
    typealias InboundOut = ByteBuffer
    typealias OutboundOut = ByteBuffer

    private let timeout: TimeAmount
    private let timeoutText: String
    private var deadline: Scheduled<Void>?
    /// The last bytes read, to find the blank line that ends the head across reads.
    private var tail: [UInt8] = []
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
        deadline = context.eventLoop.assumeIsolated().scheduleTask(in: timeout) { [self] in
            self.expire(context)
        }
    }

    /// The head did not arrive in time: 408, then the way out closes, and the connection a
    /// moment later (closing at once with unread bytes could reset the connection before the
    /// client reads the 408).
    private func expire(_ context: ChannelHandlerContext) {
        expired = true
        let error = ServiceError(
            .requestTimeout, code: .badRequest,
            "the request's headers did not arrive within \(timeoutText); send the whole request at once (the connection was closed)"
        )
        let (contentType, body) = ErrorRendering.of(path: "").rendered(error, accept: nil)
        let head =
            "HTTP/1.1 408 Request Timeout\r\nContent-Type: \(contentType)\r\nContent-Length: \(body.utf8.count)\r\nConnection: close\r\n\r\n"
        context.writeAndFlush(wrapOutboundOut(context.channel.allocator.buffer(string: head + body)), promise: nil)
        context.close(mode: .output, promise: nil)
        context.eventLoop.assumeIsolated().scheduleTask(in: .seconds(2)) { context.close(promise: nil) }
    }
}

@available(*, unavailable)
extension FirstHeadTimeoutHandler: Sendable {}
