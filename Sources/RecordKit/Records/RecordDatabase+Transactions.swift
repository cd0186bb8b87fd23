import Foundation
import GRDB

/// A write kept under its transaction ID.
public struct StoredTransaction: Sendable, Hashable {
    public var id: String
    public var createdAt: Date
    /// The request as stored (JSON text).
    public var request: String
    /// The result returned to the first run and to every retry (JSON text).
    public var result: String
}

extension RecordDatabase {
    /// Runs `body` in one write transaction at most once per `transactionID`.
    ///
    /// The first run stores `request` and the result; a later call with the same ID and an
    /// equal request returns the stored result without running `body` (`isReplay` true); the
    /// same ID with a different request fails with `transactionConflict`. The stored result is
    /// written in the same transaction as the changes, so either both land or neither does.
    public func write<Request: Encodable, Result: Codable>(
        transactionID: String,
        request: Request,
        _ body: (RecordTransaction) throws -> Result
    ) throws(RecordError) -> (result: Result, isReplay: Bool) {
        guard !transactionID.isEmpty, transactionID.utf8.count <= 255 else {
            throw RecordError(.invalidArguments, "a transaction ID must be 1 to 255 bytes long")
        }
        let requestData: Data
        do {
            requestData = try JSONEncoder.sorted.encode(request)
        } catch {
            throw RecordError(.invalidArguments, "the request cannot be stored: \(error)", underlyingError: UncheckedCause(error))
        }
        return try write { transaction in
            let db = transaction.db
            let stored = try Row.fetchOne(db, sql: "SELECT request, result FROM _transactions WHERE id = ?", arguments: [transactionID])
            if let stored {
                guard (stored["request"] as Data) == requestData else {
                    throw RecordError(
                        .transactionConflict,
                        "transaction '\(transactionID)' was already used for a different request; use a new transaction ID for a new request"
                    )
                }
                return (try JSONDecoder().decode(Result.self, from: stored["result"] as Data), true)
            }
            let result = try body(transaction)
            try db.execute(
                sql: "INSERT INTO _transactions(id, request, result, createdAt) VALUES (?, ?, ?, ?)",
                arguments: [transactionID, requestData, try JSONEncoder.sorted.encode(result), Timestamp.milliseconds(Date())]
            )
            return (result, false)
        }
    }

    /// Every stored transaction, oldest first.
    public func transactions() throws(RecordError) -> [StoredTransaction] {
        try read { transaction in
            try Row.fetchAll(transaction.db, sql: "SELECT * FROM _transactions ORDER BY createdAt, id").map(StoredTransaction.init)
        }
    }

    /// The stored transaction `id`, or `unknownItem`.
    public func transaction(id: String) throws(RecordError) -> StoredTransaction {
        let found = try read { transaction in
            try Row.fetchOne(transaction.db, sql: "SELECT * FROM _transactions WHERE id = ?", arguments: [id]).map(StoredTransaction.init)
        }
        guard let found else { throw Self.unknownTransaction(id) }
        return found
    }

    /// Forgets stored transaction `id` (a later request with that ID runs anew), or `unknownItem`.
    public func deleteTransaction(id: String) throws(RecordError) {
        try write { transaction in
            try transaction.db.execute(sql: "DELETE FROM _transactions WHERE id = ?", arguments: [id])
            if transaction.db.changesCount == 0 { throw Self.unknownTransaction(id) }
        }
    }

    private static func unknownTransaction(_ id: String) -> RecordError {
        RecordError(.unknownItem, "there is no stored transaction '\(id)'; list them with: transactions")
    }
}

extension StoredTransaction {
    init(row: Row) {
        id = row["id"]
        createdAt = Timestamp.date(milliseconds: row["createdAt"])
        request = String(decoding: row["request"] as Data, as: UTF8.self)
        result = String(decoding: row["result"] as Data, as: UTF8.self)
    }
}
