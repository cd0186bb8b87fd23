public import Foundation
public import RecordKit

/// Data access for executing the generated schema with GraphQLSwift's own resolver executor.
///
/// Production answers data queries by compiling them to SQL and never resolves through
/// GraphQLSwift, so ``RecordQLSchema`` needs no resolver; give one to get a *reference*
/// executor (tests compare the two). The schema does the GraphQL side itself — it turns
/// arguments into ``Query`` values and `fields:` inputs into ``RecordOperation``s, reads system
/// and user fields from ``Record`` sources, follows references by recordName and lists
/// referrers with a query — and calls these functions for the data. `context` is the context
/// value given to GraphQLSwift's `graphql(…)`.
///
/// Over a ``RecordDatabase`` each function is one call: `records(matching:)`, `page(_:after:)`,
/// `fetch(recordNames:)`, `assetContent(sha256:)`, `modify([operation]).results[0]`.
public protocol RecordResolver: Sendable {
    /// The records `query` matches, in its order (root list fields and referrers fields).
    func records(matching query: Query, context: any Sendable) async throws -> [Record]
    /// One page of `query` after `cursor` (root page fields).
    func page(_ query: Query, after cursor: String?, context: any Sendable) async throws -> RecordPage
    /// The records named in `recordNames` that exist (REFERENCE fields; deletes check the type).
    func fetch(recordNames: [String], context: any Sendable) async throws -> [Record]
    /// The content of the asset with `sha256`, `nil` when there is none (`asset(sha256:)`).
    func assetContent(sha256: String, context: any Sendable) async throws -> Data?
    /// Applies one create, update or delete (the mutation fields).
    func apply(_ operation: RecordOperation, context: any Sendable) async throws -> OperationResult
}
