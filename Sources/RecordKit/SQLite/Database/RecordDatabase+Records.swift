public import Foundation
internal import GRDB

extension RecordDatabase {
    /// Creates `record` or replaces the stored record of the same name; with `ifChangeTag`,
    /// fails with `serverRecordChanged` unless the stored record still has that tag.
    @discardableResult
    public func save(_ record: Record, ifChangeTag: String? = nil) throws(RecordError) -> Record {
        try performWrite { try $0.save(record, mode: .save(ifChangeTag: ifChangeTag)) }
    }

    /// Creates `record`; fails with `serverRecordChanged` if its recordName is taken.
    @discardableResult
    public func create(_ record: Record) throws(RecordError) -> Record {
        try performWrite { try $0.save(record, mode: .create) }
    }

    /// Changes only `fields` of an existing record (`nil` removes a value).
    @discardableResult
    public func update(
        recordType: String, recordName: String, fields: [String: Value?], ifChangeTag: String? = nil
    ) throws(RecordError) -> Record {
        try performWrite { try $0.update(recordType: recordType, recordName: recordName, fields: fields, ifChangeTag: ifChangeTag) }
    }

    /// Deletes a record and its DELETE_SELF dependents; returns every recordName removed.
    @discardableResult
    public func delete(recordName: String) throws(RecordError) -> [String] {
        try performWrite { try $0.delete(recordName: recordName) }
    }

    /// The record named `recordName`, or `nil`.
    public func fetch(recordName: String) throws(RecordError) -> Record? {
        try performRead { try $0.fetch(recordName: recordName) }
    }

    /// The records named in `recordNames` that exist, in the order asked.
    public func fetch(recordNames: [String]) throws(RecordError) -> [Record] {
        try performRead { try $0.fetch(recordNames: recordNames) }
    }

    /// Applies `operations` atomically: all of them, or — if any fails — none.
    ///
    /// With a `transactionID`, the first run stores its result; running the same operations
    /// with the same ID again (a retry after a dropped connection) applies nothing and returns
    /// the stored result with ``BatchResult/isReplay`` set; the same ID with other operations
    /// fails with `transactionConflict`.
    @discardableResult
    public func modify(_ operations: [RecordOperation], transactionID: String? = nil) throws(RecordError) -> BatchResult {
        try Self.checkBatchSize(operations.count)
        guard let transactionID else {
            return try performWrite { transaction in BatchResult(results: try transaction.deferringReferenceChecks { try operations.map(transaction.apply) }) }
        }
        let outcome = try recordErrors {
            try write(transactionID: transactionID, request: operations) { transaction in
                BatchResult(results: try transaction.deferringReferenceChecks { try operations.map(transaction.apply) })
            }
        }
        return BatchResult(results: outcome.result.results, isReplay: outcome.isReplay)
    }

    /// The content of the asset with `sha256`, or `nil`.
    public func assetContent(sha256: String) throws(RecordError) -> Data? {
        try performRead { try $0.assetContent(sha256: sha256) }
    }
}
