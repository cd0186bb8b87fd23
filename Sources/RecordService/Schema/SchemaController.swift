import Foundation
import Hummingbird
import NIOFoundationEssentialsCompat
import RecordKit

/// `GET …/schema`, `GET …/schema/history` and `POST …/schema`: one database's schema as CKDB
/// text, its history, and additive changes to it, so that `shop --server` can show and evolve
/// the schema as it does a file's.
///
/// A change merges a CKDB text into the schema (what it adds is applied; a change that is not
/// additive is refused whole, naming it); it needs an admin token and is refused in
/// `production`, whose schema changes only through `shop schema deploy`.
struct SchemaController {
    func addRoutes(to group: RouterGroup<ServiceRequestContext>) {
        group.get("schema") { _, context in try await self.show(context) }
        group.get("schema/history") { _, context in try await self.history(context) }
        group.post("schema") { request, context in try await self.change(request, context: context) }
    }

    private func show(_ context: ServiceRequestContext) async throws -> Response {
        _ = try context.requirePrincipal()
        let database = try context.requireDatabase().database
        let current = try await database.schema()
        return OperationsController.json(.ok, "{\"version\":\(current.version),\"ckdb\":" + JSONText.string(current.schema.ckdb) + "}")
    }

    private func history(_ context: ServiceRequestContext) async throws -> Response {
        _ = try context.requirePrincipal()
        let database = try context.requireDatabase().database
        let entries = try await BlockingWork.run { () throws(RecordError) in try database.schemaHistory() }
        let items = entries.map { entry in
            "{\"version\":\(entry.version),\"appliedAt\":\(Int64(entry.appliedAt.timeIntervalSince1970 * 1000)),\"change\":" + JSONText.string(entry.change)
                + "}"
        }
        return OperationsController.json(.ok, "{\"history\":[" + items.joined(separator: ",") + "]}")
    }

    private func change(_ request: Request, context: ServiceRequestContext) async throws -> Response {
        guard try context.requirePrincipal().isAdmin else {
            throw ServiceError(.forbidden, code: .accessDenied, "changing the schema needs an admin token; create one with: shop token create --admin")
        }
        let target = try context.requireDatabase()
        guard target.address.environment == .development else {
            throw ServiceError(
                .forbidden, code: .accessDenied, "production's schema changes only through: shop schema deploy (it applies development's schema)")
        }
        var request = request
        let body = try await request.collectBody(upTo: context.maxUploadSize)
        guard case .string(let text)? = try? JSONValue.parse(Data(buffer: body))["ckdb"] else {
            throw ServiceError(.badRequest, code: .badRequest, "the body must be a JSON object {\"ckdb\": \"…\"} holding the schema text to merge")
        }
        let database = target.database
        let changes = try await BlockingWork.run { () throws(RecordError) in try database.importSchema(ckdb: text) }
        return OperationsController.json(.ok, "{\"changes\":[" + changes.map { JSONText.string($0.description) }.joined(separator: ",") + "]}")
    }
}
