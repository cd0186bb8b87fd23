public import Foundation
internal import GRDB

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
    /// Runs `body` in one write transaction (acting for `access`) at most once per `transactionID`.
    ///
    /// The first run stores `request` and the result; a later call with the same ID and an
    /// equal request returns the stored result without running `body` (`isReplay` true); the
    /// same ID with a different request fails with `transactionConflict`. The stored result is
    /// written in the same transaction as the changes, so either both land or neither does.
    ///
    /// - Throws: the error `body` throws, unchanged (nothing is stored then); ``RecordError``
    ///   `transactionConflict` for the same ID with another request, `invalidArguments` for an ID
    ///   that is empty or longer than 255 bytes; the database's own failures as ``RecordError``.
    public func write<Request: Encodable, Result: Codable>(
        transactionID: String,
        request: Request,
        access: AccessPolicy = .owner,
        _ body: (RecordTransaction) throws -> Result
    ) throws -> (result: Result, isReplay: Bool) {
        let key = try TransactionRequest(id: transactionID, request: request)
        return try write(access: access) { transaction in
            if let stored = try Self.storedResponse(for: key, in: transaction) {
                return (try Self.decode(Result.self, from: stored), true)
            }
            let result = try body(transaction)
            try Self.store(key, response: try JSONEncoder.sorted.encode(result), in: transaction)
            return (result, false)
        }
    }

    /// The response stored under `key`'s ID in `transaction`, or `nil` when the ID is new.
    /// Throws `transactionConflict` when the ID was used for another request.
    static func storedResponse(for key: TransactionRequest, in transaction: RecordTransaction) throws -> Data? {
        let stored = try Row.fetchOne(
            transaction.db.cachedStatement(sql: "SELECT request, result FROM _transactions WHERE id = ?"), arguments: [key.id]
        )
        guard let stored else { return nil }
        guard (stored["request"] as Data) == key.request else {
            throw RecordError(
                .transactionConflict,
                "transaction '\(key.id)' was already used for a different request; use a new transaction ID for a new request"
            )
        }
        return stored["result"] as Data
    }

    /// Stores `key`'s request with `response` in `transaction`, with the writes it made.
    static func store(_ key: TransactionRequest, response: Data, in transaction: RecordTransaction) throws {
        try transaction.db.cachedStatement(sql: "INSERT INTO _transactions(id, request, result, createdAt) VALUES (?, ?, ?, ?)")
            .execute(arguments: [key.id, key.request, response, Timestamp.milliseconds(Date())])
    }

    private static func decode<Result: Decodable>(_ type: Result.Type, from data: Data) throws(RecordError) -> Result {
        do {
            return try JSONDecoder().decode(type, from: data)
        } catch {
            throw RecordError(.internalError, "a stored transaction result cannot be read: \(error)", underlyingError: UncheckedCause(error))
        }
    }

    /// Every stored transaction, oldest first.
    public func transactions() throws(RecordError) -> [StoredTransaction] {
        try performRead { transaction in
            try Row.fetchAll(transaction.db, sql: "SELECT * FROM _transactions ORDER BY createdAt, id").map(StoredTransaction.init)
        }
    }

    /// The stored transaction `id`, or `unknownItem`.
    public func transaction(id: String) throws(RecordError) -> StoredTransaction {
        let found = try performRead { transaction in
            try Row.fetchOne(transaction.db, sql: "SELECT * FROM _transactions WHERE id = ?", arguments: [id]).map(StoredTransaction.init)
        }
        guard let found else { throw Self.unknownTransaction(id) }
        return found
    }

    /// Forgets stored transaction `id` (a later request with that ID runs anew), or `unknownItem`.
    public func deleteTransaction(id: String) throws(RecordError) {
        try performWrite { transaction in
            try transaction.db.execute(sql: "DELETE FROM _transactions WHERE id = ?", arguments: [id])
            if transaction.db.changesCount == 0 { throw Self.unknownTransaction(id) }
        }
    }

    /// The failure of showing or forgetting a transaction ID that is not stored, naming `id` as
    /// the caller gave it (a service stores IDs under a scope of its own).
    public static func unknownTransaction(_ id: String) -> RecordError {
        RecordError(.unknownItem, "there is no stored transaction '\(id)'", reason: .unknownTransaction, remedy: .listTransactions)
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
