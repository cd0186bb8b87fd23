public import RecordKit
import Synchronization

/// Opens each database of the data folder once, on first use, and hands the same
/// ``ServiceDatabase`` to every request after.
///
/// Users' private databases are many: each is opened on demand and forgotten (closed once the
/// requests using it finish) when it has been idle for ``idleTime`` (``closeIdle(now:)``, which
/// the service runs periodically, and every opening of another one) or when more than
/// ``maximumOpenPrivate`` are open (the least recently used first); the public databases stay
/// open.
public final class DatabaseRegistry: Sendable {
    public let folder: DataFolder
    /// The most private databases kept open at once.
    public let maximumOpenPrivate: Int
    /// How long an unused private database is kept open.
    public let idleTime: Duration
    private let opened = Mutex<[DatabaseAddress: Task<ServiceDatabase, any Error>]>([:])
    private let lastUsed = Mutex<[DatabaseAddress: ContinuousClock.Instant]>([:])
    /// Each environment's one schema, which its private databases follow.
    private let schemas: EnvironmentSchemas

    /// A registry of the databases of `folder`; a schema change another process makes reaches
    /// the open private databases within `schemaChangesOfOtherProcessesSeenWithin`.
    public init(
        folder: DataFolder, maximumOpenPrivate: Int = 64, idleTime: Duration = .seconds(300),
        schemaChangesOfOtherProcessesSeenWithin: Duration = .seconds(1)
    ) {
        self.folder = folder
        self.maximumOpenPrivate = max(1, maximumOpenPrivate)
        self.idleTime = idleTime
        schemas = EnvironmentSchemas(otherProcessesSeenWithin: schemaChangesOfOtherProcessesSeenWithin)
    }

    /// How many times a private database's schema was read and compared with its
    /// environment's (``EnvironmentSchemas``; tests check that a check holds).
    var schemaReads: Int { schemas.schemaReads }

    /// How many private databases are open now.
    public var openPrivateCount: Int {
        opened.withLock { tasks in tasks.keys.filter(\.isPrivate).count }
    }

    /// The databases open now (the public ones and the private ones in use), for work the service
    /// does on each of them; one that failed to open is left out.
    public func openDatabases() async -> [ServiceDatabase] {
        var databases: [ServiceDatabase] = []
        for task in opened.withLock({ Array($0.values) }) {
            if let database = try? await task.value { databases.append(database) }
        }
        return databases.sorted { "\($0.address)" < "\($1.address)" }
    }

    /// The database at `address`, opened (created with the folder's
    /// ``DataFolder/newDatabaseSchema`` when new) on first use; a private one brought to its
    /// environment's schema first (``EnvironmentSchemas``).
    ///
    /// - Throws: `RecordError` when the file cannot be opened; the next call tries again.
    public func database(_ address: DatabaseAddress) async throws(RecordError) -> ServiceDatabase {
        if address.isPrivate { closeIdle(using: address) }
        let task = opened.withLock { tasks in
            if let task = tasks[address] { return task }
            let path = try? filePath(address)
            let schema = folder.newDatabaseSchema
            let task = Task { () throws -> ServiceDatabase in
                guard let path else { throw RecordError(.unknownItem, "there is no database \(address)") }
                let database = try await BlockingWork.run { () throws(RecordError) in try RecordDatabase(path: path, bootstrap: schema, readers: .service) }
                return ServiceDatabase(address: address, database: database)
            }
            tasks[address] = task
            return task
        }
        let database: ServiceDatabase
        do {
            database = try await task.value
        } catch {
            opened.withLock { tasks in tasks[address] = nil }
            throw error as? RecordError ?? RecordError(.internalError, "cannot open the database \(address): \(error)", underlyingError: error)
        }
        if address.isPrivate {
            try await schemas.share(database, with: try await self.database(DatabaseAddress(environment: address.environment, scope: .public)))
        }
        return database
    }

    /// Opens the databases the service always serves, so that a broken file is found at start.
    public func openDefaults() async throws(RecordError) {
        for environment in ServiceEnvironment.allCases {
            _ = try await database(DatabaseAddress(environment: environment, scope: .public))
        }
    }

    /// Forgets the private databases idle for longer than ``idleTime`` at `now`: each closes once
    /// the requests still using it finish.
    public func closeIdle(now: ContinuousClock.Instant = .now) {
        closeIdle(using: nil, now: now)
    }

    /// Notes that `address` (a private database), if any, is used now, and forgets the private
    /// databases idle past ``idleTime`` and the least recently used past ``maximumOpenPrivate``.
    private func closeIdle(using address: DatabaseAddress?, now: ContinuousClock.Instant = .now) {
        let closing = lastUsed.withLock { used -> [DatabaseAddress] in
            if let address { used[address] = now }
            var closing = used.filter { $0.key != address && now - $0.value > idleTime }.map(\.key)
            let rest = used.filter { !closing.contains($0.key) }.sorted { $0.value < $1.value }
            closing += rest.prefix(max(0, rest.count - maximumOpenPrivate)).map(\.key)
            for closed in closing { used[closed] = nil }
            return closing
        }
        guard !closing.isEmpty else { return }
        opened.withLock { tasks in
            for closed in closing { tasks[closed] = nil }
        }
        for closed in closing { schemas.forget(closed) }
    }

    private func filePath(_ address: DatabaseAddress) throws(RecordError) -> String {
        switch address.scope {
        case .public:
            return folder.publicDatabasePath(address.environment)
        case .private(let user):
            return try folder.privateDatabasePath(address.environment, user: UserName(user))
        }
    }
}
