import Foundation
public import Hummingbird
public import RecordKit

/// Writes that may carry an `Idempotency-Key`, for every API: the first run stores its response
/// in the same database transaction as its writes; a retry of the same request gets that
/// response again with `Idempotent-Replayed: true` and applies nothing; the same key with
/// another request is refused (`conflictStatus`: 422 for GraphQL, 409 for CloudKit); a retry
/// while the first is still running gets 409. Keys belong to one principal and one database.
public struct IdempotentWrites: Sendable {
    let inFlight: InFlightKeys

    public init(inFlight: InFlightKeys) {
        self.inFlight = inFlight
    }

    /// Applies `writes` to `store` in one transaction, under `key` when there is one, and returns
    /// the response `response` built from their results (or the stored one, for a retry).
    ///
    /// - Parameters:
    ///   - request: what makes two requests the same (the endpoint and its body, decoded).
    ///   - conflictStatus: the status of a reused key with another request.
    ///   - response: builds the response inside the transaction; throwing rolls the writes back
    ///     and stores nothing.
    /// - Throws: the store's ``RecordError`` (nothing applied), ``ServiceError`` for a reused or
    ///   running key, or the error `response` throws.
    public func modify<Request: Encodable & Sendable>(
        _ writes: [RecordWrite],
        in store: any RecordStore,
        key: IdempotencyKey?,
        principal: Principal,
        request: Request,
        conflictStatus: HTTPResponse.Status,
        response: @escaping @Sendable ([RecordWriteResult]) throws -> StoredResponse
    ) async throws -> Response {
        let encode: @Sendable ([RecordWriteResult]) throws -> Data = { results in try JSONEncoder().encode(try response(results)) }
        guard let key else {
            return try Self.answer(try await store.modify(writes, atSchemaVersion: nil, transaction: nil, response: encode))
        }
        let storedID = TransactionScope(principal).storedID(key.text)
        let transaction = try TransactionRequest(id: storedID, request: request)
        return try await inFlight.whileRunning(storedID) {
            do {
                return try Self.answer(try await store.modify(writes, atSchemaVersion: nil, transaction: transaction, response: encode))
            } catch let error as RecordError where error.code == .transactionConflict {
                throw ServiceError(
                    conflictStatus, code: .conflict,
                    "the Idempotency-Key '\(key)' was used for a different request; send a new key for a new request"
                )
            }
        }
    }

    private static func answer(_ outcome: WriteOutcome) throws -> Response {
        switch outcome {
        case .applied(_, let data): return try JSONDecoder().decode(StoredResponse.self, from: data).response(replayed: false)
        case .replayed(let data): return try JSONDecoder().decode(StoredResponse.self, from: data).response(replayed: true)
        case .schemaChanged:
            // Only a batch planned against a schema version can meet another one.
            throw ServiceError(.serviceUnavailable, code: .tryAgainLater, "the schema changed while the request ran; send it again")
        }
    }
}
