import HTTPTypes
import NIOCore
import NIOHTTPTypes

/// Closes the connection after a response that says `Connection: close` (a route's answer to a
/// request whose body it refused unread, ``ExpectContinueMiddleware``): Hummingbird keeps a
/// connection open unless the *request* asked to close it, and would otherwise read and discard
/// the refused body, however large, before the client's next request. The close lingers
/// (``EarlyAnswer/closeLingering(_:)``) so the answer is read before the connection ends. One of
/// the HTTP/1 channel's additional handlers.
final class ClosingResponseHandler: ChannelOutboundHandler, RemovableChannelHandler {
    typealias OutboundIn = HTTPResponsePart
    typealias OutboundOut = HTTPResponsePart

    /// The response being written said `Connection: close`.
    private var closing = false

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        let part = unwrapOutboundIn(data)
        context.write(data, promise: promise)
        switch part {
        case .head(let head) where head.status.kind != .informational:
            closing = head.headerFields[.connection]?.lowercased() == "close"
        case .end where closing:
            context.flush()
            EarlyAnswer.closeLingering(context)
        case .head, .body, .end:
            break
        }
    }
}

@available(*, unavailable)
extension ClosingResponseHandler: Sendable {}
