import Logging
import RecordKit
import Synchronization

/// One schema per environment, as CloudKit has one per container and environment, shared by
/// its public database and every user's private database.
///
/// The public database holds it: schema changes (`…/public/schema`, `shop --server`'s `schema`
/// commands) and `shop schema deploy` change it there. Each private database is a file of its
/// own and follows it: before a request uses one, what the environment's schema gained is
/// merged into it, and in development what the private database gained just in time (a write
/// naming a new type or field) is merged into the environment's, so that the other users' private
/// databases, the public one and a later deploy have it too. Both merges are additive
/// (``Schema/ComparisonMode/merge``) and run only when either schema changed since the last.
final class EnvironmentSchemas: Sendable {
    /// The schema versions each private database and its environment had when they were last
    /// brought together.
    private let shared = Mutex<[DatabaseAddress: (own: Int, environment: Int)]>([:])
    private let logger = Logger(label: "shop serve")

    /// Brings the private `database` and `environment` (its environment's public database) to
    /// one schema. A merge that cannot apply (the same field added with two types) is logged and
    /// leaves both as they are: the request goes on with the private database's schema.
    func share(_ database: ServiceDatabase, with environment: ServiceDatabase) async throws(RecordError) {
        var common = try await environment.database.schema()
        var own = try await database.database.schema()
        if let last = shared.withLock({ $0[database.address] }), last == (own.version, common.version) { return }
        do {
            own = try await database.database.updateSchema(to: common.schema, mode: .merge).current
            if database.address.environment == .development {
                common = try await environment.database.updateSchema(to: own.schema, mode: .merge).current
            }
        } catch let error where error.code == .schemaViolation {
            logger.warning(
                "the private database's schema and its environment's disagree; each keeps its own",
                metadata: ["database": "\(database.address)", "error": "\(error.message)"])
        }
        shared.withLock { $0[database.address] = (own.version, common.version) }
    }

    /// Forgets `address`, closed: the next request to it brings it together again.
    func forget(_ address: DatabaseAddress) {
        _ = shared.withLock { $0.removeValue(forKey: address) }
    }
}
