import Foundation
public import Prometheus

/// What the routes share: the configuration, the databases, the accounts (tokens, users, keys)
/// and the metrics.
public struct ServiceState: Sendable {
    public let configuration: ServiceConfiguration
    public let databases: DatabaseRegistry
    public let tokens: TokenStore
    /// The users and their password hashes.
    public let users: UserStore
    /// The server-to-server keys.
    public let keys: ServerKeyStore
    /// Resolves credentials against the tokens and keys: the middleware of every data route,
    /// and what a WebSocket session and a subscription's stream check their token with.
    public var credentials: CredentialMiddleware { CredentialMiddleware(tokens: tokens, keys: keys) }
    /// Bounds login attempts per name and per address.
    public let logins = LoginThrottle()
    /// The registry `/metrics` renders, which ``RequestMetricsMiddleware`` writes into.
    public let metrics = PrometheusCollectorRegistry()
    /// Writes under an `Idempotency-Key`, for every API.
    public let writes = IdempotentWrites(inFlight: InFlightKeys())
    /// Asset uploads waiting for a record to take them, as files of the data folder.
    let uploads: AssetUploads
    /// The GraphQL WebSocket sessions open now: a service of its own, run after the
    /// application's, that closes them with 1001 as the server stops.
    public let webSocketSessions = OpenWebSocketSessions()
    /// The places of the large requests handled at once (``LargeRequestMiddleware``): as many as
    /// the machine has cores, at least two, so one is parsed while another writes.
    let largeRequests = AdmissionGate(places: max(2, ProcessInfo.processInfo.activeProcessorCount))

    public init(configuration: ServiceConfiguration) throws {
        self.configuration = configuration
        self.databases = DatabaseRegistry(folder: configuration.data)
        let accounts = try AccountsDatabase.open(configuration.data)
        self.tokens = TokenStore(accounts: accounts)
        self.users = UserStore(accounts: accounts)
        self.keys = ServerKeyStore(accounts: accounts)
        self.uploads = try AssetUploads(folder: configuration.data.uploadsPath)
    }
}
