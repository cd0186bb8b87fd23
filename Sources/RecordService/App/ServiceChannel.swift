import Hummingbird
import HummingbirdCore
import HummingbirdWebSocket
import Logging
import NIOCore
import NIOHTTP1

/// The service's connections: HTTP/1.1 with the GraphQL WebSocket upgrade
/// (hummingbird-websocket's channel), the first request head timed by
/// ``FirstHeadTimeoutHandler`` (and refused with 400 by ``FirstHeadErrorHandler`` when it is not
/// HTTP) and everything after by ``RequestReadTimeoutHandler``.
struct ServiceChannel: ServerChildChannel {
    typealias Value = HTTP1WebSocketUpgradeChannel.Value

    let upgrading: HTTP1WebSocketUpgradeChannel
    let readTimeout: Duration

    /// The builder of these channels, upgrades decided by `webSocketRouter`.
    static func builder(webSocketRouter: Router<ServiceRequestContext>, readTimeout: Duration) -> HTTPServerBuilder {
        let webSocketResponder = webSocketRouter.buildResponder()
        return HTTPServerBuilder { responder in
            ServiceChannel(
                upgrading: HTTP1WebSocketUpgradeChannel(
                    responder: responder, webSocketResponder: webSocketResponder,
                    configuration: .init(
                        http1: .init(additionalChannelHandlers: [RequestReadTimeoutHandler(timeout: readTimeout)], idleTimeout: nil),
                        ws: .init(
                            maxFrameSize: GraphQLWebSocketSession.maximumMessageSize, autoPing: .enabled(timePeriod: .seconds(30)), closeTimeout: .seconds(5))
                    )
                ),
                readTimeout: readTimeout
            )
        }
    }

    func setup(channel: any Channel, logger: Logger) -> EventLoopFuture<Value> {
        channel.eventLoop.makeCompletedFuture {
            try channel.pipeline.syncOperations.addHandler(FirstHeadTimeoutHandler(timeout: readTimeout))
        }.flatMap {
            upgrading.setup(channel: channel, logger: logger)
        }.flatMapThrowing { value in
            let operations = channel.pipeline.syncOperations
            let decoder = try operations.handler(type: ByteToMessageHandler<HTTPRequestDecoder>.self)
            try operations.addHandler(FirstHeadErrorHandler(), position: .after(decoder))
            return value
        }
    }

    func handle(value: Value, logger: Logger) async {
        await upgrading.handle(value: value, logger: logger)
    }
}
