import HTTPTypes
import Logging
import NIOCore
import NIOHTTP1

/// Refuses with 403, and closes the connection, a WebSocket upgrade from a web page whose
/// origin `shop serve --allow-origin` leaves out (``BrowserOrigins/admitWebSocket(from:)``): a
/// browser applies no CORS to WebSockets and hands the page every message, so without this a
/// page of any origin could hold a GraphQL subscription open with a token it was given.
///
/// An upgrade is decided on a connection's first request, before any route runs (a later
/// request asking for one is sent to a new connection by hummingbird-websocket), so this sits
/// right after the HTTP decoder and leaves once the first head has passed it. The answer is in
/// the shape of the API of the path (``EarlyAnswer``) and logged like any answered request.
final class WebSocketOriginHandler: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias OutboundOut = HTTPServerResponsePart

    private let origins: BrowserOrigins
    private let logger: Logger
    /// Set once the first request was refused: what the client still sends is dropped.
    private var refused = false

    init(origins: BrowserOrigins, logger: Logger) {
        self.origins = origins
        self.logger = logger
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard !refused else { return }
        guard case .head(let head) = unwrapInboundIn(data), Self.asksForWebSocket(head.headers),
            let origin = head.headers.first(name: "Origin"), !origins.admitWebSocket(from: origin)
        else {
            context.fireChannelRead(data)
            context.pipeline.syncOperations.removeHandler(context: context, promise: nil)
            return
        }
        refused = true
        let answer = EarlyAnswer(
            ServiceError(
                .forbidden, code: .accessDenied,
                "a web page of origin '\(origin)' may not open a WebSocket to this service, which admits the pages of the origins "
                    + "given with --allow-origin only; start shop serve with --allow-origin \(origin) to admit this one"),
            path: head.uri, accept: head.headers.first(name: "Accept"))
        answer.log(to: logger, method: head.method.rawValue, uri: head.uri)
        for part in answer.http1Parts(allocator: context.channel.allocator) { context.write(wrapOutboundOut(part), promise: nil) }
        context.flush()
        EarlyAnswer.closeLingering(context)
    }

    /// Whether a request asks to become a WebSocket (`Upgrade: websocket`, in any case).
    static func asksForWebSocket(_ headers: HTTPHeaders) -> Bool {
        headers["Upgrade"].contains { value in
            value.split(separator: ",").contains { $0.trimmingWhitespace().lowercased() == "websocket" }
        }
    }
}

@available(*, unavailable)
extension WebSocketOriginHandler: Sendable {}
