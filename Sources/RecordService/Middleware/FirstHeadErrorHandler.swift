import HTTPTypes
import NIOCore
import NIOHTTP1

/// Answers `400 Bad Request`, saying what could not be read, and closes the connection when a
/// connection's first request head cannot be decoded (not HTTP, a malformed header line, headers
/// past the size limit): the GraphQL WebSocket upgrade's pipeline has no HTTP error handling of
/// its own before it decides between HTTP and a WebSocket. It sits right after the HTTP decoder and leaves once the first head has passed it.
final class FirstHeadErrorHandler: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias OutboundOut = HTTPServerResponsePart

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        context.fireChannelRead(data)
        context.pipeline.syncOperations.removeHandler(context: context, promise: nil)
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        guard let error = error as? HTTPParserError else {
            context.fireErrorCaught(error)
            return
        }
        let (contentType, body) = ErrorRendering.of(path: "").rendered(Self.refusal(error), accept: nil)
        let buffer = context.channel.allocator.buffer(string: body)
        let head = HTTPResponseHead(
            version: .http1_1, status: .badRequest,
            headers: ["Content-Type": contentType, "Content-Length": "\(buffer.readableBytes)", "Connection": "close"])
        context.write(wrapOutboundOut(.head(head)), promise: nil)
        context.write(wrapOutboundOut(.body(.byteBuffer(buffer))), promise: nil)
        context.writeAndFlush(wrapOutboundOut(.end(nil)), promise: nil)
        // The way out closes after the answer; the connection a moment later (at once, unread
        // bytes could reset it before the client reads the 400).
        context.close(mode: .output, promise: nil)
        _ = context.eventLoop.assumeIsolated().scheduleTask(in: .seconds(2)) { context.close(promise: nil) }
    }
}

extension FirstHeadErrorHandler {
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
