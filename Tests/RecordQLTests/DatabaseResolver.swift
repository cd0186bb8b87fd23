import Foundation
import RecordKit
import RecordQL

/// The reference resolver: every data access is one ``RecordDatabase`` call.
struct DatabaseResolver: RecordResolver {
    let database: RecordDatabase

    func records(matching query: Query, context: any Sendable) async throws -> [Record] {
        try database.records(matching: query)
    }

    func page(_ query: Query, after cursor: String?, context: any Sendable) async throws -> RecordPage {
        try database.page(query, after: cursor)
    }

    func fetch(recordNames: [String], context: any Sendable) async throws -> [Record] {
        try database.fetch(recordNames: recordNames)
    }

    func assetContent(sha256: String, context: any Sendable) async throws -> Data? {
        try database.assetContent(sha256: sha256)
    }

    func apply(_ operation: RecordOperation, context: any Sendable) async throws -> OperationResult {
        try database.modify([operation]).results[0]
    }
}
