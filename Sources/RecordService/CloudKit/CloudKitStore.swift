import RecordKit

/// Where the CloudKit endpoints reach the engine: whole units of work on the engine's async
/// seam (never on the event loop), acting for the request's principal, with the engine's
/// failures as CloudKit's errors.
struct CloudKitStore: Sendable {
    let database: RecordDatabase
    /// Who the request acts for: every read and write is filtered and checked for it.
    let access: AccessPolicy

    /// Runs `body` on a consistent snapshot, acting for ``access``.
    func read<T: Sendable>(_ body: @escaping @Sendable (RecordTransaction) throws -> T) async throws(CloudKitError) -> T {
        do {
            return try await database.read(access: access, body)
        } catch {
            throw Self.failure(error)
        }
    }

    /// The current schema.
    func schema() async throws(CloudKitError) -> Schema {
        do {
            return try await database.schema().schema
        } catch {
            throw CloudKitError(error)
        }
    }

    /// The type of each stored record named in `recordNames`, by name.
    func recordTypes(of recordNames: [String]) async throws(CloudKitError) -> [String: String] {
        guard !recordNames.isEmpty else { return [:] }
        return try await read { transaction in
            Dictionary(try transaction.fetch(recordNames: recordNames).map { ($0.recordName, $0.recordType) }, uniquingKeysWith: { first, _ in first })
        }
    }

    /// Adds to the schema what `schema` has and it lacks: a custom zone's records are in a
    /// database of their own, which grows its schema with its writes; the database's schema,
    /// which every zone follows, then takes what that added.
    func merge(_ schema: Schema) async throws(CloudKitError) {
        do {
            _ = try await database.updateSchema(to: schema, mode: .merge)
        } catch {
            throw CloudKitError(error)
        }
    }

    private static func failure(_ error: any Error) -> CloudKitError {
        switch error {
        case let error as CloudKitError: error
        case let error as RecordError: CloudKitError(error)
        default: CloudKitError(RecordError(wrapping: error))
        }
    }
}
