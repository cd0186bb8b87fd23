import Foundation
import RecordKit
import RecordQL

/// Where a session's records live: a database file (``LocalBackend``) or a `shop serve` reached
/// over HTTP (``RemoteBackend``). Commands speak only to this, so each is written once and prints
/// the same lines either way.
///
/// Reads may be repeated freely; each ``apply(_:)`` is one atomic write, which a remote backend
/// sends with a transaction ID of its own so that a retry after a dropped connection is applied
/// once.
protocol ShopBackend: AnyObject {
    /// The database file's path or the server's URL, as the prompt's banner and errors name it.
    var location: String { get }
    /// The database file, for what only a file can do (`-1`, adopting the shopping rules, Ctrl-C
    /// interrupting SQLite); `nil` through a server.
    var localDatabase: RecordDatabase? { get }
    /// Where a script's commands (`-e`, `-f`) should run, if the backend has a preference: a
    /// server's client runs them on the thread its answers arrive on. `nil` for a file.
    var scriptExecutor: (any TaskExecutor)? { get }

    /// Ends the session: closes connections.
    func close() async

    /// The current schema.
    func schema() async throws(RecordError) -> Schema
    /// The records `query` matches, in its order.
    func records(matching query: Query) async throws(RecordError) -> [Record]
    /// The records with these recordNames that exist.
    func fetch(recordNames: [String]) async throws(RecordError) -> [Record]
    /// How many records `query` matches.
    func count(matching query: Query) async throws(RecordError) -> Int
    /// Calls `body` with each record `query` matches, in its order, and a way to read an asset's
    /// content by its SHA-256 (`nil` when there is none), holding only a few records at a time.
    func forEachRecord(matching query: Query, _ body: (Record, AssetContent) throws -> Void) async throws(RecordError)
    /// Creates the records of an import file in one transaction, all or none: the first row that
    /// fails refuses the whole file, named by its line (``ImportFile``); returns how many.
    func importRecords(_ file: ImportFile, progress: inout ProgressBar) async throws(RecordError) -> Int
    /// Every list, by name, with its item count, in one query.
    func listSummaries() async throws(RecordError) -> [ShoppingStore.ListSummary]
    /// The list named `list` and its item named `item`: what every item command looks up first,
    /// in one request through a server (``ShoppingStore/NamedRecords``). `forAdding` says the
    /// command adds an item of that name, so expects none: a server's client may then take the
    /// name to be free where the schema's `UNIQUE (list, name)` refuses a duplicate.
    func namedRecords(list: String, item: String, forAdding: Bool) async throws(RecordError) -> ShoppingStore.NamedRecords
    /// Whether no list is named `name`: what `list add` and `list rename` check before they write.
    func listNameIsFree(_ name: String) async throws(RecordError) -> Bool
    /// Applies `operation` in one transaction.
    func apply(_ operation: RecordOperation) async throws(RecordError) -> OperationResult
    /// Runs `body`, a command's look-ups and its one ``apply(_:)``, as one transaction where the
    /// storage allows: a database file holds its write lock from the first look-up to the
    /// write, so nothing changes in between and the work commits once. Through a server each
    /// request is a transaction of its own, and the write is checked there again.
    func asOneUnit<T>(_ body: () async throws(RecordError) -> T) async throws(RecordError) -> T
    /// Runs a GraphQL document typed at the prompt (a query or a mutation).
    func execute(_ document: String) async throws(RecordError) -> GraphQLResponse
    /// The live results of a GraphQL subscription (``WatchCommand``): its result at once, then
    /// its new result after each commit that changes it, until the stream is dropped. A request
    /// error (a document that does not validate) is the first and only response.
    func watch(_ document: String) async throws(RecordError) -> AsyncThrowingStream<GraphQLResponse, any Error>
    /// The query-language engine's plan for a GraphQL query.
    func explain(_ document: String) async throws(RecordError) -> String
    /// The storage's SQL and plan for a record query.
    func explain(_ query: Query) async throws(RecordError) -> QueryExplanation
    /// The GraphQL schema generated from the record types, in GraphQL's SDL.
    func schemaDefinitionLanguage() async throws(RecordError) -> String

    /// Applies additive schema changes, all or none.
    func applySchemaChanges(_ changes: [SchemaChange]) async throws(RecordError)
    /// Merges the CKDB schema `text` into the schema, additively; returns what changed, described.
    func importSchema(ckdb text: String) async throws(RecordError) -> [String]
    /// Every schema change applied, oldest first.
    func schemaHistory() async throws(RecordError) -> [SchemaHistoryRow]

    /// The stored transactions (idempotent writes), oldest first.
    func transactions() async throws(RecordError) -> [TransactionRow]
    /// One stored transaction.
    func transaction(id: String) async throws(RecordError) -> TransactionRow
    /// Forgets a stored transaction.
    func deleteTransaction(id: String) async throws(RecordError)
}

/// An asset's content by its SHA-256, `nil` when the database has none.
typealias AssetContent = (String) throws -> Data?

/// One entry of `schema history`.
struct SchemaHistoryRow: Equatable {
    var version: Int
    var appliedAt: Date
    var change: String
}

/// A stored transaction as `transactions` and `transaction show` print it.
struct TransactionRow: Equatable {
    var id: String
    var createdAt: Date
    /// The request as stored.
    var request: JSONValue
    /// The result returned to the first run and every retry.
    var result: JSONValue
}
