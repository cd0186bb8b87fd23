public import RecordKit
import Synchronization

/// Opens each database of the data folder once, on first use, and hands the same
/// ``ServiceDatabase`` to every request after.
public final class DatabaseRegistry: Sendable {
    public let folder: DataFolder
    private let opened = Mutex<[DatabaseAddress: Task<ServiceDatabase, any Error>]>([:])

    public init(folder: DataFolder) {
        self.folder = folder
    }

    /// The database at `address`, opened (created with the shopping schema when new) on first use.
    ///
    /// - Throws: `RecordError` when the file cannot be opened; the next call tries again.
    public func database(_ address: DatabaseAddress) async throws(RecordError) -> ServiceDatabase {
        let task = opened.withLock { tasks in
            if let task = tasks[address] { return task }
            let path = try? filePath(address)
            let task = Task { () throws -> ServiceDatabase in
                guard let path else { throw RecordError(.unknownItem, "there is no database \(address)") }
                let database = try await BlockingWork.run { () throws(RecordError) in try RecordDatabase(path: path) }
                return ServiceDatabase(address: address, database: database)
            }
            tasks[address] = task
            return task
        }
        do {
            return try await task.value
        } catch {
            opened.withLock { tasks in tasks[address] = nil }
            throw error as? RecordError ?? RecordError(.internalError, "cannot open the database \(address): \(error)", underlyingError: error)
        }
    }

    /// Opens the databases the service always serves, so that a broken file is found at start.
    public func openDefaults() async throws(RecordError) {
        for environment in ServiceEnvironment.allCases {
            _ = try await database(DatabaseAddress(environment: environment, scope: .public))
        }
    }

    private func filePath(_ address: DatabaseAddress) throws(RecordError) -> String {
        switch address.scope {
        case .public:
            return folder.publicDatabasePath(address.environment)
        case .private:
            throw RecordError(.unknownItem, "private databases are not served yet; use the public database")
        }
    }
}
