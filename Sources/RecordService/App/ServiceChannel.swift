import Hummingbird
import HummingbirdCore
import HummingbirdWebSocket
import Logging
import NIOCore
import NIOHTTP1

/// The service's connections: HTTP/1.1 with the GraphQL WebSocket upgrade
/// (hummingbird-websocket's channel), the first request head timed by
/// ``FirstHeadTimeoutHandler`` (and refused with 400 by ``FirstHeadErrorHandler`` when it is not
/// HTTP, with 403 by ``WebSocketOriginHandler`` when it is an upgrade from a page of an origin
/// not admitted) and everything after by ``RequestReadTimeoutHandler`` (a later head that is not HTTP
/// refused by ``LaterHeadErrorHandler``, a response saying `Connection: close` followed by the
/// close by ``ClosingResponseHandler``).
struct ServiceChannel: ServerChildChannel {
    /// A connection: hummingbird-websocket's, and whether its first request head came.
    struct Value: ServerChildChannelValue {
        let upgrading: HTTP1WebSocketUpgradeChannel.Value
        let firstHead: EventLoopFuture<Void>

        var channel: any Channel { upgrading.channel }
    }

    let upgrading: HTTP1WebSocketUpgradeChannel
    let origins: BrowserOrigins
    let readTimeout: Duration

    /// The builder of these channels, upgrades decided by `webSocketRouter` for the pages of
    /// `origins`.
    static func builder(
        webSocketRouter: Router<ServiceRequestContext>, origins: BrowserOrigins, readTimeout: Duration, logger: Logger
    ) -> HTTPServerBuilder {
        let webSocketResponder = webSocketRouter.buildResponder()
        return HTTPServerBuilder { responder in
            ServiceChannel(
                upgrading: HTTP1WebSocketUpgradeChannel(
                    responder: responder, webSocketResponder: webSocketResponder,
                    configuration: .init(
                        http1: .init(
                            additionalChannelHandlers: [
                                RequestReadTimeoutHandler(timeout: readTimeout), LaterHeadErrorHandler(logger: logger), ClosingResponseHandler(),
                            ],
                            idleTimeout: nil),
                        ws: .init(
                            maxFrameSize: GraphQLWebSocketSession.maximumMessageSize, autoPing: .enabled(timePeriod: .seconds(30)), closeTimeout: .seconds(5))
                    )
                ),
                origins: origins, readTimeout: readTimeout
            )
        }
    }

    func setup(channel: any Channel, logger: Logger) -> EventLoopFuture<Value> {
        channel.eventLoop.makeCompletedFuture {
            try channel.pipeline.syncOperations.addHandler(FirstHeadTimeoutHandler(timeout: readTimeout, logger: logger))
        }.flatMap {
            upgrading.setup(channel: channel, logger: logger)
        }.flatMapThrowing { upgrading in
            let operations = channel.pipeline.syncOperations
            let decoder = try operations.handler(type: ByteToMessageHandler<HTTPRequestDecoder>.self)
            let firstHead = channel.eventLoop.makePromise(of: Void.self)
            do {
                try operations.addHandler(FirstHeadErrorHandler(logger: logger, firstHead: firstHead), position: .after(decoder))
                // Before it: a refused upgrade is no first request to serve.
                if origins != .any {
                    try operations.addHandler(WebSocketOriginHandler(origins: origins, logger: logger), position: .after(decoder))
                }
            } catch {
                firstHead.fail(error)
                throw error
            }
            return Value(upgrading: upgrading, firstHead: firstHead.futureResult)
        }
    }

    /// Serves the connection as HTTP or as a WebSocket. A connection that ended without a first
    /// request to serve (refused with 400 by ``FirstHeadErrorHandler`` or with 403 by
    /// ``WebSocketOriginHandler``, timed out by ``FirstHeadTimeoutHandler``, closed by the
    /// client) is a debug line: hummingbird-websocket
    /// would log each at error level ("Error handling upgrade result"), so any client could fill
    /// the log with errors the server already answered.
    func handle(value: Value, logger: Logger) async {
        do {
            try await value.firstHead.get()
        } catch {
            logger.debug("connection ended without a first request to serve", metadata: ["error": "\(error)"])
            return
        }
        await upgrading.handle(value: value.upgrading, logger: logger)
    }
}
