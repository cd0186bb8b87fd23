public import Foundation

/// ``RecordStore`` on SQLite: every unit of work is one transaction of the async twins of
/// ``RecordDatabase/read(_:)-(@Sendable(RecordTransaction)->T)`` and
/// ``RecordDatabase/write(_:)-(@Sendable(RecordTransaction)->T)``.
extension RecordDatabase: RecordStore {
    public func schema() async throws(RecordError) -> VersionedSchema {
        try await recordErrors { try await read { $0.versionedSchema } }
    }

    public func apply(_ changes: [SchemaChange]) async throws(RecordError) -> VersionedSchema {
        try await recordErrors { try await write { try $0.apply(changes) } }
    }

    public func updateSchema(to target: Schema, mode: Schema.ComparisonMode) async throws(RecordError) -> SchemaUpdate {
        try await recordErrors { try await write { try $0.updateSchema(to: target, mode: mode) } }
    }

    public func read(
        _ reads: [RecordRead], atSchemaVersion version: Int?, access: AccessPolicy
    ) async throws(RecordError) -> StoreOutcome<[Result<RecordReadResult, RecordError>]> {
        try await recordErrors {
            try await read(access: access) { transaction in
                if let version, version != transaction.schemaVersion { return .schemaChanged(transaction.versionedSchema) }
                return .completed(
                    reads.map { read in
                        Result { () throws(RecordError) in
                            do {
                                return try transaction.perform(read)
                            } catch {
                                throw transaction.recordError(for: error)
                            }
                        }
                    })
            }
        }
    }

    public func modify(
        _ writes: [RecordWrite],
        atSchemaVersion version: Int?,
        transaction key: TransactionRequest?,
        access: AccessPolicy,
        response: @escaping @Sendable ([RecordWriteResult]) throws -> Data
    ) async throws -> WriteOutcome {
        try Self.checkBatchSize(writes.count)
        return try await write(access: access) { transaction in
            if let key, let stored = try Self.storedResponse(for: key, in: transaction) {
                return .replayed(response: stored)
            }
            if let version, version != transaction.schemaVersion { return .schemaChanged(transaction.versionedSchema) }
            var results: [RecordWriteResult] = []
            results.reserveCapacity(writes.count)
            var deleted: Set<String> = []
            do {
                try transaction.deferringReferenceChecks {
                    for (index, write) in writes.enumerated() {
                        if write.skipsIfAlreadyDeleted, case .delete(let recordName) = write.operation, deleted.contains(recordName) {
                            results.append(.deleted([]))
                            continue
                        }
                        do {
                            let result = try transaction.perform(write)
                            if case .deleted(let names) = result { deleted.formUnion(names) }
                            results.append(result)
                        } catch {
                            throw OperationFailure(index: index, error: transaction.recordError(for: error))
                        }
                    }
                }
            } catch let error as RecordError {
                // A reference whose target the batch never saved: the write holding it failed.
                let index = writes.lastIndex { $0.operation.recordName == error.recordName } ?? 0
                throw OperationFailure(index: index, error: error)
            }
            let bytes = try response(results)
            if let key { try Self.store(key, response: bytes, in: transaction) }
            return .applied(results, response: bytes)
        }
    }

    public func changes(after sequence: Int64, limit: Int) async throws(RecordError) -> [Change] {
        try await recordErrors { try await read { try $0.changes(after: sequence, limit: limit) } }
    }

    /// Fails with `limitExceeded` when a batch has more than ``Limits/maximumBatchOperations``.
    static func checkBatchSize(_ count: Int) throws(RecordError) {
        guard count <= Limits.maximumBatchOperations else {
            throw RecordError(
                .limitExceeded,
                "a batch holds at most \(Limits.maximumBatchOperations) operations; this one has \(count) — split it into several batches"
            )
        }
    }
}

extension RecordTransaction {
    /// The schema this transaction sees, with its version.
    var versionedSchema: VersionedSchema { VersionedSchema(version: schemaVersion, schema: schema) }

    /// Runs one read of a ``RecordStore`` unit.
    func perform(_ read: RecordRead) throws -> RecordReadResult {
        switch read {
        case .json(let query, let projection):
            return .json(try json(query, projection: projection))
        case .jsonPage(let query, let after, let projection):
            let page = try jsonPage(query, after: after, projection: projection)
            return .jsonPage(records: page.records, cursor: page.cursor)
        case .aggregateJSON(let query, let aggregation):
            return .json(try json(compileAggregateJSON(query, aggregation: aggregation)))
        case .records(let query):
            return .records(try records(matching: query))
        case .page(let query, let after):
            return .page(try page(query, after: after))
        case .lookup(let names):
            return .records(try fetch(recordNames: names))
        case .asset(let sha256):
            return .asset(try assetContent(sha256: sha256))
        case .explain(let query, let projection):
            return .explanation(try explainJSON(query, projection: projection))
        case .explainAggregate(let query, let aggregation):
            return .explanation(try explainAggregateJSON(query, aggregation: aggregation))
        case .changes(let request):
            return .changes(try changePage(request))
        }
    }

    /// Applies one write of a ``RecordStore`` batch.
    func perform(_ write: RecordWrite) throws -> RecordWriteResult {
        if case .delete(let recordName) = write.operation, let recordType = write.recordType {
            guard let existing = try locate(recordName), existing.recordType == recordType, try mayRead(recordName, of: recordType) else {
                throw RecordError(.unknownItem, "there is no \(recordType) record named '\(recordName)'", recordType: recordType, recordName: recordName)
            }
        }
        switch try apply(write.operation) {
        case .deleted(let names):
            return .deleted(names)
        case .unchanged(let recordName):
            return .unchanged(recordName: recordName)
        case .saved(let record):
            guard let projection = write.projection else { return .saved(record, json: nil) }
            guard let json = try json(recordName: record.recordName, recordType: record.recordType, projection: projection) else {
                throw RecordError(
                    .internalError, "\(record.recordType) '\(record.recordName)' was saved but cannot be read back",
                    recordType: record.recordType, recordName: record.recordName
                )
            }
            return .saved(record, json: json)
        }
    }
}
