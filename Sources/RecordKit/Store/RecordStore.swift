public import Foundation

/// The storage seam: what the layers above RecordKit (the query language, the service) need from
/// a database, as whole units of work.
///
/// Each requirement is one transaction from start to end: the caller hands over everything the
/// unit needs (the reads to run, the operations to apply, how to build the stored response) and
/// gets values back, never a connection or an open transaction. So a backend whose transactions
/// are asynchronous — a PostgreSQL one on postgres-nio — can implement it as well as
/// ``RecordDatabase`` (SQLite, through GRDB) does; nothing here names a SQLite or GRDB type.
///
/// Schema versions. Every applied schema change increments the version. Callers derive things
/// from a schema (a GraphQL schema, a plan) outside any transaction, from ``schema()``; reads and
/// writes take the version they were planned against and answer ``StoreOutcome/schemaChanged(_:)``
/// with the current schema instead of running, when the version moved meanwhile, so the caller
/// plans again.
///
/// Errors. Every requirement throws ``RecordError`` and only that (except the `response`
/// closure's own error of ``modify(_:atSchemaVersion:transaction:response:)``, which comes back
/// unchanged); the `- Throws:` of each names the codes its failures raise. Common to all:
/// `internalError` when the storage cannot be reached or is damaged (busy past the retry time,
/// I/O error), `limitExceeded` when it is full, `invalidArguments` when it is read-only.
public protocol RecordStore: Sendable {
    /// The current schema and its version.
    ///
    /// - Throws: ``RecordError`` `internalError` when the stored schema cannot be read.
    func schema() async throws(RecordError) -> VersionedSchema

    /// Applies `changes` in one transaction, all or none, and returns the schema they made.
    /// Only additive changes exist (``SchemaChange``), so records never need rewriting.
    ///
    /// - Throws: ``RecordError`` `schemaViolation` when a change does not fit the current schema
    ///   (the type or field exists already with another definition, a reference names an
    ///   unknown type), naming it; `invalidArguments` for a name that is not a valid identifier.
    func apply(_ changes: [SchemaChange]) async throws(RecordError) -> VersionedSchema

    /// Brings the schema to `target` (``Schema/ComparisonMode/merge``: adds what `target` adds and
    /// keeps what it leaves out; `.exact`: leaving something out means removing it) in one
    /// transaction, and returns the changes applied with the schema they made. Safe to run again:
    /// what exists already is not a change. The service's development environment adds fields
    /// just in time this way; `shop schema deploy` applies a whole schema.
    ///
    /// - Throws: ``RecordError`` `schemaViolation` naming the first change that is not additive
    ///   (a field of another type, a removal in `.exact` mode); nothing is applied then.
    func updateSchema(to target: Schema, mode: Schema.ComparisonMode) async throws(RecordError) -> SchemaUpdate

    /// Runs `reads` in one read transaction (one consistent snapshot), results in the same order,
    /// each its own success or failure; when `version` is given and the schema is at another one,
    /// runs nothing and answers ``StoreOutcome/schemaChanged(_:)``.
    ///
    /// A read fails with ``RecordError`` `schemaViolation` for a record type or field the schema
    /// does not have; `invalidArguments` for a bad predicate value, a cursor of another query or a
    /// paged read without a limit; `limitExceeded` for a value past the storage's limits.
    ///
    /// - Throws: ``RecordError`` only for the common failures above (the unit as a whole).
    ///
    /// The reads act for `access`: what it may not read is left out of every result, as if it
    /// did not exist (``AccessPolicy``).
    func read(
        _ reads: [RecordRead], atSchemaVersion version: Int?, access: AccessPolicy
    ) async throws(RecordError) -> StoreOutcome<[Result<RecordReadResult, RecordError>]>

    /// Applies `writes` in one write transaction, atomically: all of them, or — if any fails, or
    /// `response` throws — none. `response` turns the results into the bytes returned (and stored
    /// under `transaction`); it runs inside the transaction, so it must be quick and pure.
    ///
    /// With a `transaction`, the first run stores its request and response in the same
    /// transaction as the writes; a later call with the same ID and an equal request applies
    /// nothing and answers ``WriteOutcome/replayed(response:)`` with the stored bytes. When
    /// `version` is given and the schema is at another one, nothing runs and the answer is
    /// ``WriteOutcome/schemaChanged(_:)``.
    ///
    /// - Throws: ``OperationFailure`` naming the write that failed, with its ``RecordError``:
    ///   `serverRecordChanged` for a stale change tag or a create of an existing name;
    ///   `unknownItem` for an update or delete of a missing record (or one of another type than
    ///   ``RecordWrite/recordType``); `referenceViolation` for a DELETE_SELF reference to a missing
    ///   record or a reference to the wrong type; `schemaViolation` for an unknown type or field
    ///   or a value of the wrong type. ``RecordError`` for the batch as a whole:
    ///   `transactionConflict` when the transaction ID was used for another request,
    ///   `limitExceeded` past ``Limits/maximumBatchOperations``, and the common failures above.
    ///   The error `response` throws comes back unchanged. The writes act for `access`: one it
    ///   may not make fails with `permissionFailure` (or `unknownItem` for a record it may not
    ///   read), and the records it saves get its user as creator and modifier.
    func modify(
        _ writes: [RecordWrite],
        atSchemaVersion version: Int?,
        transaction: TransactionRequest?,
        access: AccessPolicy,
        response: @escaping @Sendable ([RecordWriteResult]) throws -> Data
    ) async throws -> WriteOutcome

    /// The changes after `sequence`, oldest first, at most `limit` (the change feed).
    ///
    /// - Throws: ``RecordError`` only for the common failures above.
    func changes(after sequence: Int64, limit: Int) async throws(RecordError) -> [Change]

    /// The commits of this database from now on, each element naming the record types of the
    /// commits since the previous one (``CommitNotices``): every committed write transaction,
    /// this process's or another's on the same storage, and never one that rolled back. What
    /// live queries re-run on.
    func commitNotices() -> CommitNotices
}

extension RecordStore {
    /// ``read(_:atSchemaVersion:access:)`` as the owner, who reads everything.
    public func read(_ reads: [RecordRead], atSchemaVersion version: Int?) async throws(RecordError) -> StoreOutcome<[Result<RecordReadResult, RecordError>]> {
        try await read(reads, atSchemaVersion: version, access: .owner)
    }

    /// ``modify(_:atSchemaVersion:transaction:access:response:)`` as the owner, who writes everything.
    public func modify(
        _ writes: [RecordWrite],
        atSchemaVersion version: Int?,
        transaction: TransactionRequest?,
        response: @escaping @Sendable ([RecordWriteResult]) throws -> Data
    ) async throws -> WriteOutcome {
        try await modify(writes, atSchemaVersion: version, transaction: transaction, access: .owner, response: response)
    }
}

/// A schema with its version.
public struct VersionedSchema: Sendable, Hashable {
    /// Grows with every applied schema change; 0 before any.
    public var version: Int
    public var schema: Schema

    public init(version: Int, schema: Schema) {
        self.version = version
        self.schema = schema
    }
}

/// What ``RecordStore/updateSchema(to:mode:)`` did.
public struct SchemaUpdate: Sendable, Hashable {
    /// The changes applied, empty when the schema already had everything.
    public var changes: [SchemaChange]
    /// The schema after them.
    public var current: VersionedSchema
}

/// The answer of a unit of work planned against a schema version.
public enum StoreOutcome<Value: Sendable>: Sendable {
    /// It ran, with this result.
    case completed(Value)
    /// It did not run: the schema is at another version now; plan again against this one.
    case schemaChanged(VersionedSchema)
}
