public import Foundation

/// One read of a ``RecordStore/read(_:atSchemaVersion:)`` unit.
public enum RecordRead: Sendable, Hashable {
    /// The JSON array of the records matching the query, each object built by the projection
    /// (inside the storage, in one statement): ``RecordReadResult/json(_:)``.
    case json(Query, Projection)
    /// One page of the query (its `limit` is the page size) after the cursor, as JSON:
    /// ``RecordReadResult/jsonPage(records:cursor:)``.
    case jsonPage(Query, after: String?, Projection)
    /// The aggregates of the records matching the query (its sort and limit unused) as one JSON
    /// object built by the aggregation (inside the storage, in one statement):
    /// ``RecordReadResult/json(_:)``.
    case aggregateJSON(Query, Aggregation)
    /// The records matching the query: ``RecordReadResult/records(_:)``.
    case records(Query)
    /// One page of the query after the cursor: ``RecordReadResult/page(_:)``.
    case page(Query, after: String?)
    /// The records named, those that exist, in the order asked: ``RecordReadResult/records(_:)``.
    case lookup(recordNames: [String])
    /// The content of an asset: ``RecordReadResult/asset(_:)``.
    case asset(sha256: String)
    /// How the storage would run ``json(_:_:)``, without running it:
    /// ``RecordReadResult/explanation(_:)``.
    case explain(Query, Projection)
    /// How the storage would run ``aggregateJSON(_:_:)``: ``RecordReadResult/explanation(_:)``.
    case explainAggregate(Query, Aggregation)
    /// One page of the change feed: ``RecordReadResult/changes(_:)``. Fails with
    /// `invalidArguments` (reason ``RecordError/Reason/changeTokenExpired``) for a token the
    /// log can no longer serve.
    case changes(ChangeFeedRequest)
}

/// The result of one ``RecordRead``, of the case its read names.
public enum RecordReadResult: Sendable, Hashable {
    case json(String)
    case jsonPage(records: String, cursor: String?)
    case records([Record])
    case page(RecordPage)
    case asset(Data?)
    case explanation(QueryExplanation)
    case changes(ChangePage)
}
