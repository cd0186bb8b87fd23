import NIOCore
import NIOHTTP1

/// Answers `400 Bad Request` and closes the connection when a connection's first request head
/// cannot be decoded (not HTTP, headers past the size limits): the GraphQL WebSocket upgrade's
/// pipeline has no HTTP error handling of its own before it decides between HTTP and a
/// WebSocket. It sits right after the HTTP decoder and leaves once the first head has passed it.
final class FirstHeadErrorHandler: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias OutboundOut = HTTPServerResponsePart

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        context.fireChannelRead(data)
        context.pipeline.syncOperations.removeHandler(context: context, promise: nil)
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        guard error is HTTPParserError else {
            context.fireErrorCaught(error)
            return
        }
        let head = HTTPResponseHead(
            version: .http1_1, status: .badRequest, headers: ["Connection": "close", "Content-Length": "0"])
        context.write(wrapOutboundOut(.head(head)), promise: nil)
        context.writeAndFlush(wrapOutboundOut(.end(nil)), promise: nil)
        // The way out closes after the answer; the connection a moment later (at once, unread
        // bytes could reset it before the client reads the 400).
        context.close(mode: .output, promise: nil)
        _ = context.eventLoop.assumeIsolated().scheduleTask(in: .seconds(2)) { context.close(promise: nil) }
    }
}

@available(*, unavailable)
extension FirstHeadErrorHandler: Sendable {}
