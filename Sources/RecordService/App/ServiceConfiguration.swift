import RecordKit

/// How `shop serve` runs: where it listens, what it serves and its limits.
public struct ServiceConfiguration: Sendable {
    /// The address to listen on.
    public var host: String
    /// The port to listen on; 0 picks a free one.
    public var port: Int
    /// The data folder: databases, accounts, token hashes.
    public var data: DataFolder
    /// The CloudKit container the service answers for; requests naming another get 404.
    public var container: String
    /// How long stored transactions (idempotency keys) are kept.
    public var transactionRetention: Duration
    /// How long the change log keeps tombstones and superseded saves (older sync tokens expire).
    public var changeRetention: Duration
    /// The largest request body read; larger ones get 413.
    public var maximumBodySize: Int
    /// The largest body an asset's upload URL takes, streamed to a file; larger ones get 413.
    public var maximumUploadSize: Int
    /// How long a request's head may take to arrive, and then its body; a slower request gets
    /// 408 and its connection is closed.
    public var readTimeout: Duration
    /// The web pages whose scripts may call the service from a browser (CORS).
    public var browserOrigins: BrowserOrigins

    /// The container served unless `--container` says otherwise.
    public static let defaultContainer = "iCloud.shop"
    /// 24 hours.
    public static let defaultTransactionRetention = Duration.seconds(24 * 60 * 60)
    /// 30 days.
    public static let defaultChangeRetention = Duration.seconds(30 * 24 * 60 * 60)
    /// 8 MiB.
    public static let defaultMaximumBodySize = 8 * 1024 * 1024
    /// 64 MiB, the most an ASSET holds (RecordKit's `Limits.maximumAssetBytes`): an upload URL
    /// takes a whole asset.
    public static var defaultMaximumUploadSize: Int { Limits.maximumAssetBytes }
    /// 30 seconds: an 8 MiB body at 280 kB/s.
    public static let defaultReadTimeout = Duration.seconds(30)

    public init(
        host: String = "127.0.0.1",
        port: Int = 8080,
        data: DataFolder,
        container: String = ServiceConfiguration.defaultContainer,
        transactionRetention: Duration = ServiceConfiguration.defaultTransactionRetention,
        changeRetention: Duration = ServiceConfiguration.defaultChangeRetention,
        maximumBodySize: Int = ServiceConfiguration.defaultMaximumBodySize,
        maximumUploadSize: Int = ServiceConfiguration.defaultMaximumUploadSize,
        readTimeout: Duration = ServiceConfiguration.defaultReadTimeout,
        browserOrigins: BrowserOrigins = .any
    ) {
        self.host = host
        self.port = port
        self.data = data
        self.container = container
        self.transactionRetention = transactionRetention
        self.changeRetention = changeRetention
        self.maximumBodySize = maximumBodySize
        self.maximumUploadSize = maximumUploadSize
        self.readTimeout = readTimeout
        self.browserOrigins = browserOrigins
    }
}
