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
///
/// Reading the two schemas costs two reads a request, so a check that found them together holds
/// until either database commits a schema change in this process, which ends it at once, or
/// ``otherProcessesSeenWithin`` passes: a change another process makes (`shop schema deploy`,
/// the REPL on the file) reaches the private databases within that.
final class EnvironmentSchemas: Sendable {
    /// How long a check holds for changes made by other processes.
    let otherProcessesSeenWithin: Duration

    /// The last check of a private database against its environment: the schema versions they
    /// had, each one's ``RecordDatabase/committedSchemaChanges`` before it, and when it was made.
    private struct Check {
        var versions: (own: Int, environment: Int)
        var commits: (own: Int, environment: Int)
        var time: ContinuousClock.Instant
    }

    private let checks = Mutex<[DatabaseAddress: Check]>([:])
    private let checkCount = Atomic<Int>(0)
    private let logger = Logger(label: "shop serve")

    init(otherProcessesSeenWithin: Duration) {
        self.otherProcessesSeenWithin = otherProcessesSeenWithin
    }

    /// How many times the schemas were read and compared (tests check that a check holds).
    var schemaReads: Int { checkCount.load(ordering: .relaxed) }

    /// Brings the private `database` and `environment` (its environment's public database) to
    /// one schema, as far as each can take the other's changes (``merge(_:into:naming:)``).
    func share(_ database: ServiceDatabase, with environment: ServiceDatabase) async throws(RecordError) {
        let commits = (own: database.database.committedSchemaChanges, environment: environment.database.committedSchemaChanges)
        let now = ContinuousClock.now
        let last = checks.withLock { $0[database.address] }
        if let last, last.commits == commits, now - last.time < otherProcessesSeenWithin { return }
        checkCount.add(1, ordering: .relaxed)
        var common = try await environment.database.schema()
        var own = try await database.database.schema()
        if last.map({ $0.versions != (own.version, common.version) }) ?? true {
            own = try await merge(common.schema, into: database.database, naming: database.address)
            if database.address.environment == .development {
                common = try await merge(own.schema, into: environment.database, naming: environment.address)
            }
        }
        let check = Check(versions: (own.version, common.version), commits: commits, time: now)
        checks.withLock { $0[database.address] = check }
    }

    /// Applies to `database` what `schema` adds to its own, one change at a time, its shape
    /// before its rules (``SchemaRules``): a change it cannot take — a field it holds with
    /// another type (two users adding one field with two types at once), a rule its records
    /// break — is logged and left out, and every other change still goes in.
    private func merge(_ schema: Schema, into database: RecordDatabase, naming address: DatabaseAddress) async throws(RecordError) -> VersionedSchema {
        var current = try await database.schema()
        let (shape, rules) = SchemaRules.separate(current.schema.changes(to: schema, mode: .merge))
        for change in shape + rules {
            do {
                current = try await database.apply([change])
            } catch let error where error.code == .schemaViolation || error.code == .limitExceeded {
                logger.warning(
                    "a schema change of the environment could not be shared; the others were",
                    metadata: ["database": "\(address)", "change": "\(change)", "error": "\(error.message)"])
            }
        }
        return current
    }

    /// Forgets `address`, closed: the next request to it brings it together again.
    func forget(_ address: DatabaseAddress) {
        _ = checks.withLock { $0.removeValue(forKey: address) }
    }
}
