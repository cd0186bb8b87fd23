public import Prometheus

/// What the routes share: the configuration, the databases, the tokens and the metrics.
public struct ServiceState: Sendable {
    public let configuration: ServiceConfiguration
    public let databases: DatabaseRegistry
    public let tokens: TokenStore
    /// The registry `/metrics` renders (the process's metrics factory writes into it).
    public let metrics: PrometheusCollectorRegistry
    /// Writes under an `Idempotency-Key`, for every API.
    public let writes = IdempotentWrites(inFlight: InFlightKeys())
    /// Asset uploads waiting for a record to take them, as files of the data folder.
    let uploads: AssetUploads

    public init(configuration: ServiceConfiguration, metrics: PrometheusCollectorRegistry = PrometheusCollectorRegistry()) throws {
        self.configuration = configuration
        self.databases = DatabaseRegistry(folder: configuration.data)
        self.tokens = try TokenStore(folder: configuration.data)
        self.metrics = metrics
        self.uploads = try AssetUploads(folder: configuration.data.uploadsPath)
    }
}
