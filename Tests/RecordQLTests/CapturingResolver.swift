import Foundation
import GraphQL
import RecordKit
import Synchronization
import TestSupport

@testable import RecordQL

/// A resolver that records the queries and operations the generated schema asks for and
/// answers with no data: shows what GraphQLSwift-coerced arguments translate to.
final class CapturingResolver: RecordResolver {
    private let captured = Mutex<(queries: [Query], operations: [RecordOperation])>(([], []))

    var queries: [Query] { captured.withLock { $0.queries } }
    var operations: [RecordOperation] { captured.withLock { $0.operations } }

    func records(matching query: Query, context: any Sendable) async throws -> [Record] {
        captured.withLock { $0.queries.append(query) }
        return []
    }

    func page(_ query: Query, after cursor: String?, context: any Sendable) async throws -> RecordPage {
        captured.withLock { $0.queries.append(query) }
        return try await DatabaseResolver(database: RecordDatabase.inMemory(bootstrap: .shopping)).page(query, after: cursor, context: context)
    }

    func fetch(recordNames: [String], context: any Sendable) async throws -> [Record] { [] }

    func assetContent(sha256: String, context: any Sendable) async throws -> Data? { nil }

    func apply(_ operation: RecordOperation, context: any Sendable) async throws -> OperationResult {
        captured.withLock { $0.operations.append(operation) }
        switch operation {
        case .create(let record), .save(let record, _):
            var saved = record
            (saved.createdAt, saved.modifiedAt, saved.changeTag) = (Date(), Date(), "tag")
            return .saved(saved)
        case .update(let recordType, let recordName, _, _):
            var saved = Record(recordType, recordName: recordName)
            (saved.createdAt, saved.modifiedAt, saved.changeTag) = (Date(), Date(), "tag")
            return .saved(saved)
        case .delete(let recordName):
            return .deleted([recordName])
        case .requireUnchanged(let recordName, _):
            return .unchanged(recordName: recordName)
        }
    }

    /// The query `document` makes `schema` ask for (its single list or page field).
    static func query(_ document: String, variables: [String: Map] = [:], in schema: Schema) async throws -> Query {
        let resolver = CapturingResolver()
        let result = try await graphql(schema: RecordQLSchema(schema, resolver: resolver).graphQLSchema, request: document, variableValues: variables)
        guard result.errors.isEmpty else { throw GraphQLErrors(result.errors) }
        guard resolver.queries.count == 1, let query = resolver.queries.first else {
            throw RecordError(.internalError, "expected one query, got \(resolver.queries)")
        }
        return query
    }
}
