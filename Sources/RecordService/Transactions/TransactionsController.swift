import Foundation
import Hummingbird
import RecordKit

/// `GET …/transactions`, `GET …/transactions/{id}` and `DELETE …/transactions/{id}`: the
/// principal's stored transactions (idempotency keys with their request and response) in one
/// database, to list, show and forget. Forgetting one lets a request with its key run anew.
struct TransactionsController {
    func addRoutes(to group: RouterGroup<ServiceRequestContext>) {
        group.get("transactions") { _, context in try await self.list(context) }
        group.get("transactions/:id") { _, context in try await self.show(context) }
        group.delete("transactions/:id") { _, context in try await self.forget(context) }
    }

    private func list(_ context: ServiceRequestContext) async throws -> Response {
        let (database, scope) = try Self.target(context)
        let stored = try await BlockingWork.run { () throws(RecordError) in try database.transactions() }
        let mine = stored.compactMap { transaction in scope.clientID(transaction.id).map { Self.json(transaction, id: $0) } }
        return OperationsController.json(.ok, "{\"transactions\":[" + mine.joined(separator: ",") + "]}")
    }

    private func show(_ context: ServiceRequestContext) async throws -> Response {
        let (database, scope) = try Self.target(context)
        let id = try Self.id(context)
        let stored = try await Self.asGiven(id) { () throws(RecordError) in try database.transaction(id: scope.storedID(id)) }
        return OperationsController.json(.ok, Self.json(stored, id: id))
    }

    private func forget(_ context: ServiceRequestContext) async throws -> Response {
        let (database, scope) = try Self.target(context)
        let id = try Self.id(context)
        try await Self.asGiven(id) { () throws(RecordError) in try database.deleteTransaction(id: scope.storedID(id)) }
        return Response(status: .noContent)
    }

    /// The ID the path names, percent-decoded: a key sent as `Idempotency-Key: a/b%c` is
    /// shown at `…/transactions/a%2Fb%25c`.
    private static func id(_ context: ServiceRequestContext) throws -> String {
        let segment = try context.parameters.require("id")
        return segment.removingPercentEncoding ?? segment
    }

    /// `body` on the blocking pool, a transaction it does not find named by `id` as the caller
    /// gave it, not as it is stored (under the caller's scope).
    private static func asGiven<T: Sendable>(_ id: String, _ body: @escaping @Sendable () throws(RecordError) -> T) async throws -> T {
        do {
            return try await BlockingWork.run(body)
        } catch let error where error.reason == .unknownTransaction {
            throw RecordDatabase.unknownTransaction(id)
        }
    }

    private static func target(_ context: ServiceRequestContext) throws(ServiceError) -> (RecordDatabase, TransactionScope) {
        let principal = try context.requirePrincipal()
        return (try context.requireDatabase().database, TransactionScope(principal))
    }

    /// `{"id","createdAt","request","response"}`: the request and response as stored (JSON).
    static func json(_ transaction: StoredTransaction, id: String) -> String {
        "{\"id\":" + JSONText.string(id) + ",\"createdAt\":" + String(Int64(transaction.createdAt.timeIntervalSince1970 * 1000))
            + ",\"request\":" + transaction.request + ",\"response\":" + transaction.result + "}"
    }
}
