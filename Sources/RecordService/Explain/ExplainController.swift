import Foundation
import Hummingbird
import NIOFoundationEssentialsCompat
import RecordKit
import RecordQL

/// `POST …/explain`: how the storage would run a query, without running it, for `shop --server`'s
/// `explain`. The body is a GraphQL query, `{"query": "{ Items { name } }"}`, answered with the
/// query-language engine's plan text, `{"plan": "…"}`; or a record query,
/// `{"recordType": "Items", "predicate": "list == 'L1'", "sort": [{"field": "name", "ascending": true}], "limit": 50}`
/// (predicate in NSPredicate format; all but `recordType` optional), answered with its SQL and
/// SQLite's plan, `{"sql": "…", "plan": ["…"]}`.
///
/// A plan shows the database's tables and indexes, so only an admin token may ask: 403 for any
/// other. A query that cannot be explained gets 400 with the engine's error in GraphQL's shape
/// (`{"errors":[{"message","locations","extensions":{"code","reason","remedy"}}]}`).
struct ExplainController {
    func addRoutes(to group: RouterGroup<ServiceRequestContext>) {
        group.post("explain") { request, context in try await self.explain(request, context: context) }
    }

    private func explain(_ request: Request, context: ServiceRequestContext) async throws -> Response {
        guard try context.requirePrincipal().isAdmin else {
            throw ServiceError(
                .forbidden, code: .accessDenied,
                "explain shows the database's tables and indexes, so it needs an admin token; create one with: shop token create --admin")
        }
        let target = try context.requireDatabase()
        var request = request
        let body = try await request.collectBody(upTo: context.maxUploadSize)
        guard let json = try? JSONValue.parse(Data(buffer: body)), case .object = json else {
            throw ServiceError(.badRequest, code: .badRequest, Self.shape)
        }
        let document: String? = if case .string(let text)? = json["query"] { text } else { nil }
        let recordType: String? = if case .string(let name)? = json["recordType"] { name } else { nil }
        guard document != nil || recordType != nil else { throw ServiceError(.badRequest, code: .badRequest, Self.shape) }
        do throws(RecordError) {
            if let document {
                let plan = try await target.graphQL.explain(document)
                return OperationsController.json(.ok, "{\"plan\":" + JSONText.string(plan) + "}")
            }
            let query = try Self.query(recordType ?? "", json)
            let database = target.database
            let explanation = try await BlockingWork.run { () throws(RecordError) in try database.explain(query) }
            return OperationsController.json(
                .ok, "{\"sql\":" + JSONText.string(explanation.sql) + ",\"plan\":[" + explanation.plan.map(JSONText.string).joined(separator: ",") + "]}")
        } catch {
            let contentType = GraphQLMediaType.negotiate(request.headers[.accept]).responseType ?? GraphQLMediaType.json.rawValue
            return Response(
                status: ServiceError(error).status, headers: [.contentType: contentType],
                body: .init(byteBuffer: ByteBuffer(string: GraphQLResponse(error: error).json)))
        }
    }

    private static let shape =
        "the body must be a JSON object {\"query\": \"<GraphQL query>\"} or {\"recordType\": …, \"predicate\": …, \"sort\": [{\"field\": …, \"ascending\": …}], \"limit\": …}"

    /// The record query a body describes.
    private static func query(_ recordType: String, _ json: JSONValue) throws(RecordError) -> Query {
        let predicate: RecordKit.Predicate =
            switch json["predicate"] {
            case .string(let text)?: try PredicateParser.parse(text)
            case nil: .all
            case let other?: throw RecordError(.invalidArguments, "predicate must be NSPredicate-format text, not \(other.kindName)")
            }
        var sort: [RecordKit.SortDescriptor] = []
        switch json["sort"] {
        case .array(let keys)?:
            for key in keys {
                guard case .string(let field)? = key["field"] else {
                    throw RecordError(.invalidArguments, "each sort key must be {\"field\": NAME, \"ascending\": true|false}")
                }
                sort.append(RecordKit.SortDescriptor(field, ascending: key["ascending"] != .bool(false)))
            }
        case nil: break
        case let other?: throw RecordError(.invalidArguments, "sort must be an array of {\"field\", \"ascending\"}, not \(other.kindName)")
        }
        let limit: Int? =
            switch json["limit"] {
            case .integer(let number)?: Int(number)
            case nil: nil
            case let other?: throw RecordError(.invalidArguments, "limit must be an integer, not \(other.kindName)")
            }
        return Query(recordType, predicate: predicate, sort: sort, limit: limit)
    }
}
