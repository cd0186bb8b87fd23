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

    /// Runs `body` in one write transaction of `database`, under `key` when there is one, and
    /// returns the response it built (or the stored one).
    ///
    /// - Parameters:
    ///   - request: what makes two requests the same (the endpoint and its body, decoded).
    ///   - conflictStatus: the status of a reused key with another request.
    ///   - body: applies the writes and builds the response, inside the transaction; throwing
    ///     rolls everything back and stores nothing.
    public func write<Request: Encodable & Sendable>(
        key: IdempotencyKey?,
        principal: Principal,
        database: RecordDatabase,
        request: Request,
        conflictStatus: HTTPResponse.Status,
        _ body: @escaping @Sendable (RecordTransaction) throws -> StoredResponse
    ) async throws -> Response {
        guard let key else {
            return try await BlockingWork.run { () throws(RecordError) in try database.write(body) }.response(replayed: false)
        }
        let storedID = TransactionScope(principal).storedID(key.text)
        return try await inFlight.whileRunning(storedID) {
            do {
                let (response, isReplay) = try await BlockingWork.run { () throws(RecordError) in
                    try database.write(transactionID: storedID, request: request, body)
                }
                return response.response(replayed: isReplay)
            } catch let error as RecordError where error.code == .transactionConflict {
                throw Self.reusedKey(key, status: conflictStatus)
            }
        }
    }

    /// The refusal of `key` reused for another request.
    static func reusedKey(_ key: IdempotencyKey, status: HTTPResponse.Status) -> ServiceError {
        ServiceError(
            status, code: .conflict,
            "the Idempotency-Key '\(key)' was used for a different request; send a new key for a new request"
        )
    }
}
