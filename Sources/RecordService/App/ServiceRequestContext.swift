public import Hummingbird
public import HummingbirdWebSocket
public import NIOCore
public import RecordKit

/// The request context of every route: the request's id, the principal its credential resolved
/// to and the database its path addresses, filled in by the middleware in that order. A GraphQL
/// WebSocket upgrade carries its handler in it (``webSocket``).
public struct ServiceRequestContext: RequestContext, WebSocketRequestContext {
    public var coreContext: CoreRequestContextStorage
    /// The `X-Request-ID` of the request, echoed on its response.
    public var requestID: String = ""
    /// Who the request acts as; `nil` when it carried no credential.
    public var principal: Principal?
    /// The database the path addresses (`/graphql` and `/database/1/…` routes).
    public var database: ServiceDatabase?
    /// The largest body a route reads, set from the configuration; larger bodies get 413.
    public var maxUploadSize: Int = ServiceConfiguration.defaultMaximumBodySize
    /// The largest body read into memory whole (a signed request's, which its signature
    /// covers): ``maxUploadSize``, except on an asset's upload URL, whose route streams larger
    /// bodies to a file (``BodyLimitMiddleware/upload(limit:bufferedLimit:)``).
    public var maxBufferedBodySize: Int = ServiceConfiguration.defaultMaximumBodySize

    /// The address of the client (the peer of the connection), `nil` when unknown.
    public var remoteAddress: SocketAddress?
    /// The connection (a subscriber too slow to read its events is closed through it).
    public let channel: any Channel
    /// The WebSocket handler of an upgrade, set by the GraphQL WebSocket route.
    public let webSocket = WebSocketHandlerReference<ServiceRequestContext>()

    public init(source: Source) {
        coreContext = .init(source: source)
        remoteAddress = source.channel.remoteAddress
        channel = source.channel
    }

    /// The client's IP address as text (what login attempts are counted by), `unknown` when none.
    var remoteAddressText: String { remoteAddress?.ipAddress ?? "unknown" }

    /// The principal, or 401 when the request carried no credential.
    public func requirePrincipal() throws(ServiceError) -> Principal {
        guard let principal else { throw ServiceError.authenticationRequired }
        return principal
    }

    /// The principal when it may write, 401 without a credential and 403 for one that may not.
    public func requireWriter() throws(ServiceError) -> Principal {
        let principal = try requirePrincipal()
        guard principal.mayWrite else {
            throw ServiceError(.forbidden, code: .accessDenied, "\(principal) may read but not write; use a user or admin token")
        }
        return principal
    }

    /// What the principal may read and write in the route's database (``Principal/access(in:)``):
    /// passed with every read and write, so the engine filters and checks them.
    public func requireAccess() throws(ServiceError) -> AccessPolicy {
        try requirePrincipal().access(in: try requireDatabase().address)
    }

    /// The database the route serves; set by ``DatabaseMiddleware`` for every data route.
    public func requireDatabase() throws(ServiceError) -> ServiceDatabase {
        guard let database else { throw ServiceError(.internalServerError, code: .internalError, "the route has no database") }
        return database
    }
}
