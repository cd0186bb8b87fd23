import RecordKit

/// Where the CloudKit endpoints read the engine: whole units of work run off the event loop,
/// with the engine's failures as CloudKit's errors.
struct CloudKitStore: Sendable {
    let database: RecordDatabase

    /// Runs `body` on a consistent snapshot.
    func read<T: Sendable>(_ body: @escaping @Sendable (RecordTransaction) throws -> T) async throws(CloudKitError) -> T {
        let database = self.database
        do {
            return try await BlockingWork.run { () throws(RecordError) in try database.read(body) }
        } catch {
            throw CloudKitError(error)
        }
    }

    /// The current schema.
    func schema() async throws(CloudKitError) -> Schema {
        try await read { $0.schema }
    }

    /// The type of each stored record named in `recordNames`, by name.
    func recordTypes(of recordNames: [String]) async throws(CloudKitError) -> [String: String] {
        guard !recordNames.isEmpty else { return [:] }
        return try await read { transaction in
            Dictionary(try transaction.fetch(recordNames: recordNames).map { ($0.recordName, $0.recordType) }, uniquingKeysWith: { first, _ in first })
        }
    }

    /// Applies additive `changes` to the schema in one transaction.
    func applySchemaChanges(_ changes: [SchemaChange]) async throws(CloudKitError) {
        let database = self.database
        do {
            try await BlockingWork.run { () throws(RecordError) in try database.applySchemaChanges(changes) }
        } catch {
            throw CloudKitError(error)
        }
    }
}
