import HTTPTypes
import Hummingbird
import HummingbirdWebSocket

/// GraphQL over WebSocket at the GraphQL endpoints (`GET …/graphql` with `Upgrade: websocket`),
/// in the `graphql-transport-ws` protocol (``GraphQLWebSocketSession``). The upgrade needs no
/// credential: the client presents its token in `connection_init` (or in the upgrade's
/// `Authorization` header), and the session refuses it there with the protocol's close codes.
struct GraphQLWebSocketController {
    /// The subprotocol spoken, negotiated with `Sec-WebSocket-Protocol`.
    static let subprotocol = "graphql-transport-ws"

    let credentials: CredentialMiddleware
    let registry: DatabaseRegistry
    let sessions: OpenWebSocketSessions

    /// The upgrade route at `path`, serving the database `target` names.
    func addRoute(to router: Router<ServiceRequestContext>, _ path: RouterPath, target: DatabaseMiddleware.Target) {
        router.ws(
            path,
            shouldUpgrade: { request, _ in
                .upgrade(Self.offersSubprotocol(request.headers) ? [.secWebSocketProtocol: Self.subprotocol] : [:])
            },
            onUpgrade: { inbound, outbound, context in
                let session = GraphQLWebSocketSession(
                    credentials: credentials, registry: registry, target: target, upgrade: context.request,
                    parameters: context.requestContext.parameters, outbound: outbound, channel: context.requestContext.channel)
                await sessions.serving(session) {
                    await session.run(inbound, subprotocolAgreed: Self.offersSubprotocol(context.request.headers))
                }
            })
    }

    /// Whether the client offered `graphql-transport-ws` in `Sec-WebSocket-Protocol`.
    static func offersSubprotocol(_ headers: HTTPFields) -> Bool {
        headers[values: .secWebSocketProtocol].contains { value in
            value.split(separator: ",").contains { $0.trimmingWhitespace() == subprotocol }
        }
    }
}
