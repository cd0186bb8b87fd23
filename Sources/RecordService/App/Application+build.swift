public import Hummingbird
public import Logging
import NIOCore

/// The path prefix of one database's CloudKit Web Services and GraphQL endpoints.
let databasePath: RouterPath = "database/1/:container/:environment/:database"

/// The service as a Hummingbird application: ``buildRouter(_:)`` listening on the configured
/// address. `onListening` is called with the port once the server accepts connections.
public func buildApplication(
    _ state: ServiceState,
    logger: Logger,
    onListening: @escaping @Sendable (Int) async -> Void = { _ in }
) async throws -> some ApplicationProtocol {
    try await state.databases.openDefaults()
    let configuration = state.configuration
    var app = Application(
        router: buildRouter(state, logger: logger),
        server: ServiceChannel.builder(
            webSocketRouter: buildWebSocketRouter(state), origins: configuration.browserOrigins, readTimeout: configuration.readTimeout, logger: logger),
        configuration: .init(address: .hostname(configuration.host, port: configuration.port), serverName: "shop"),
        onServerRunning: { channel in await onListening(channel.localAddress?.port ?? configuration.port) },
        logger: logger
    )
    app.addServices(
        Housekeeping(chores: [
            RetentionChore.transactions(state: state, logger: logger), RetentionChore.changeLog(state: state, logger: logger),
            IdleDatabaseClosing(databases: state.databases),
        ]))
    return app
}

/// Every route of the service: one route collection per API, each behind the middleware that
/// gives it a credential, a database and its error shape; HEAD answered wherever GET is, and a
/// method a path does not take refused with 405.
public func buildRouter(_ state: ServiceState, logger: Logger) -> Router<ServiceRequestContext> {
    let router = Router(context: ServiceRequestContext.self, options: .autoGenerateHeadEndpoints)
    router.add(middleware: RequestIDMiddleware())
    router.add(middleware: RequestLogMiddleware(logger: logger))
    router.add(middleware: RequestMetricsMiddleware(registry: state.metrics))
    state.configuration.browserOrigins.addMiddleware(to: router)
    router.add(middleware: ExpectContinueMiddleware())
    router.add(middleware: ResponseCompressionMiddleware())
    // Errors outside every API's own group (an unknown path) in CloudKit's shape.
    router.add(middleware: ErrorRenderingMiddleware(.cloudKit))

    OperationsController(state: state).addRoutes(to: router)
    LoginController(users: state.users, tokens: state.tokens, throttle: state.logins)
        .addRoutes(to: router.group().add(middleware: RequestDecompressionMiddleware(decompresses: false)))

    let graphQL = GraphQLController(writes: state.writes, credentials: state.credentials)
    graphQL.addRoutes(to: dataGroup(router, "", state: state, rendering: .graphQL, target: .fixed(.developmentPublic)))
    graphQL.addRoutes(to: dataGroup(router, databasePath, state: state, rendering: .graphQL, target: .path(container: state.configuration.container)))
    let cloudKit = CloudKitController(writes: state.writes, uploads: state.uploads, users: state.users, databases: state.databases)
    cloudKit.addRoutes(to: dataGroup(router, databasePath, state: state, rendering: .cloudKit, target: .path(container: state.configuration.container)))
    cloudKit.addUploadRoute(to: uploadGroup(router, state: state))
    SchemaController().addRoutes(
        to: dataGroup(router, databasePath, state: state, rendering: .cloudKit, target: .path(container: state.configuration.container)))
    TransactionsController().addRoutes(
        to: dataGroup(router, databasePath, state: state, rendering: .cloudKit, target: .path(container: state.configuration.container)))
    ExplainController().addRoutes(
        to: dataGroup(router, databasePath, state: state, rendering: .graphQL, target: .path(container: state.configuration.container)))
    router.refuseOtherMethods()
    return router
}

/// The routes a WebSocket upgrade may take: GraphQL over WebSocket (`graphql-transport-ws`) at
/// the GraphQL endpoints. A request that matches none goes on to ``buildRouter(_:logger:)``.
func buildWebSocketRouter(_ state: ServiceState) -> Router<ServiceRequestContext> {
    let router = Router(context: ServiceRequestContext.self)
    let webSocket = GraphQLWebSocketController(credentials: state.credentials, registry: state.databases, sessions: state.webSocketSessions)
    webSocket.addRoute(to: router, "graphql", target: .fixed(.developmentPublic))
    webSocket.addRoute(to: router, "database/1/:container/:environment/:database/graphql", target: .path(container: state.configuration.container))
    return router
}

/// A group of data routes under `path`: errors rendered in `rendering`'s shape, the body limit,
/// the credential resolved, a gzip body decompressed, the database resolved and a place for a
/// large request, in that order (so a request that is refused never waits for a place, nor
/// keeps another waiting).
func dataGroup(
    _ router: Router<ServiceRequestContext>, _ path: RouterPath, state: ServiceState,
    rendering: ErrorRendering, target: DatabaseMiddleware.Target
) -> RouterGroup<ServiceRequestContext> {
    routeGroup(
        router, path, state: state, rendering: rendering, target: target, bodyLimit: BodyLimitMiddleware(limit: state.configuration.maximumBodySize),
        decompression: RequestDecompressionMiddleware(decompresses: true)
    )
    .add(middleware: LargeRequestMiddleware(places: state.largeRequests))
}

/// The group of the asset upload URLs, as a CloudKit ``dataGroup(_:_:state:rendering:target:)``
/// but with bodies up to the upload limit (an asset's) instead of the request limit, and no
/// place for large requests to wait for: the route streams its body to a file, holding none of
/// it in memory. (A signed upload's body, read whole, stays within the request limit.)
func uploadGroup(_ router: Router<ServiceRequestContext>, state: ServiceState) -> RouterGroup<ServiceRequestContext> {
    let configuration = state.configuration
    return routeGroup(
        router, databasePath, state: state, rendering: .cloudKit, target: .path(container: configuration.container),
        bodyLimit: .upload(limit: configuration.maximumUploadSize, bufferedLimit: configuration.maximumBodySize),
        decompression: RequestDecompressionMiddleware(decompresses: false))
}

/// A group under `path` with errors in `rendering`'s shape, `bodyLimit`, the credential resolved,
/// the body's coding read by `decompression` and the database resolved.
private func routeGroup(
    _ router: Router<ServiceRequestContext>, _ path: RouterPath, state: ServiceState,
    rendering: ErrorRendering, target: DatabaseMiddleware.Target, bodyLimit: BodyLimitMiddleware,
    decompression: RequestDecompressionMiddleware
) -> RouterGroup<ServiceRequestContext> {
    router.group(path)
        .add(middleware: ErrorRenderingMiddleware(rendering))
        .add(middleware: bodyLimit)
        .add(middleware: state.credentials)
        .add(middleware: decompression)
        .add(middleware: DatabaseMiddleware(registry: state.databases, target: target))
}
