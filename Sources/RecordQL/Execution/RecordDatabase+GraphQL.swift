import GraphQL
import RecordKit

/// Transactions whose body fails with a ``GraphQLFailure``, which comes back out as thrown (the
/// database would otherwise wrap it in a `RecordError`). A failing write rolls back.
extension RecordDatabase {
    func read<T>(failing body: (RecordTransaction) throws(GraphQLFailure) -> T) throws(GraphQLFailure) -> T {
        let result: Result<T, GraphQLFailure>
        do {
            result = try read({ transaction in Result { () throws(GraphQLFailure) -> T in try body(transaction) } })
        } catch {
            throw GraphQLFailure(error, at: nil, ran: true)
        }
        return try result.get()
    }

    func write<T>(failing body: (RecordTransaction) throws(GraphQLFailure) -> T) throws(GraphQLFailure) -> T {
        do {
            return try write({ transaction in try Self.rollingBack(body, transaction) })
        } catch {
            throw GraphQLFailure(unwrapping: error)
        }
    }

    /// ``RecordDatabase/write(transactionID:request:_:)``: the first run stores `body`'s result
    /// under `transactionID`; a retry of the same request returns it without running `body`
    /// (`isReplay` true).
    func write<Request: Encodable>(
        transactionID: String, request: Request, failing body: (RecordTransaction) throws(GraphQLFailure) -> String
    ) throws(GraphQLFailure) -> (result: String, isReplay: Bool) {
        do {
            return try write(transactionID: transactionID, request: request) { transaction in try Self.rollingBack(body, transaction) }
        } catch {
            throw GraphQLFailure(unwrapping: error)
        }
    }

    /// Runs `body`, carrying its failure out of the transaction inside the `RecordError` that
    /// makes the database roll back.
    private static func rollingBack<T>(_ body: (RecordTransaction) throws(GraphQLFailure) -> T, _ transaction: RecordTransaction) throws -> T {
        do {
            return try body(transaction)
        } catch {
            throw RecordError(error.errors.first?.code ?? .internalError, "the operation failed and was rolled back", underlyingError: error)
        }
    }
}

extension GraphQLFailure {
    /// The failure a transaction carried out, or the database's own error.
    init(unwrapping error: RecordError) {
        if let failure = error.underlyingError as? GraphQLFailure {
            self = failure
        } else {
            self.init(error, at: nil, ran: true)
        }
    }
}
