import Foundation
import RecordKit
import RecordQL

/// A database file opened in this process: every requirement is the engine's own call.
final class LocalBackend: ShopBackend {
    let database: RecordDatabase
    private var engine: RecordQLEngine?

    init(database: RecordDatabase) {
        self.database = database
    }

    var location: String { database.path ?? "in-memory database" }
    var localDatabase: RecordDatabase? { database }
    var scriptExecutor: (any TaskExecutor)? { nil }

    /// The GraphQL engine over ``database``, made when first asked for, so a command that needs
    /// no GraphQL never pays for its schema.
    var queryEngine: RecordQLEngine {
        if let engine { return engine }
        let made = RecordQLEngine(database: database)
        engine = made
        return made
    }

    /// Whether ``queryEngine`` has been made (start-up and plain commands leave it unmade).
    var hasQueryEngine: Bool { engine != nil }

    func close() async {}

    func schema() async throws(RecordError) -> Schema {
        try database.schema
    }

    func records(matching query: Query) async throws(RecordError) -> [Record] {
        try database.records(matching: query)
    }

    func fetch(recordNames: [String]) async throws(RecordError) -> [Record] {
        try database.fetch(recordNames: recordNames)
    }

    func count(matching query: Query) async throws(RecordError) -> Int {
        try database.count(matching: query)
    }

    /// One read transaction, the records streamed from SQLite's cursor one at a time.
    func forEachRecord(matching query: Query, _ body: (Record, AssetContent) throws -> Void) async throws(RecordError) {
        try read { transaction in
            try transaction.forEachRecord(matching: query) { record in
                try body(record) { sha256 in try transaction.assetContent(sha256: sha256) }
            }
        }
    }

    /// One write transaction, each row created as it is read; the first failure rolls it back.
    func importRecords(_ file: ImportFile, progress: inout ProgressBar) async throws(RecordError) -> Int {
        try write { transaction in
            var count = 0
            do {
                // A row may reference a record of a later row (an exported file is in
                // recordName order): references are checked when the file is read.
                try transaction.deferringReferenceChecks {
                    try file.forEachRow(progress: &progress) { row in
                        do {
                            _ = try transaction.apply(.create(row.record))
                        } catch {
                            throw file.located(transaction.recordError(for: error), line: row.line)
                        }
                        count += 1
                    }
                }
            } catch let error as RecordError where error.code == .referenceViolation && !file.isLocated(error) {
                throw file.located(error, line: file.line(of: error.recordName))
            }
            return count
        }
    }

    /// Each count is an aggregate over the list's items (`Lists { name ItemsAggregate { count } }`)
    /// read from the `(list, …)` index, in one statement.
    func listSummaries() async throws(RecordError) -> [ShoppingStore.ListSummary] {
        let count = Aggregation([Aggregation.Member("count", .count)])
        let projection = Projection([
            Projection.Member("name", .field("name")),
            Projection.Member("items", .aggregate(recordType: ShoppingStore.itemType, field: "list", predicate: .all, count)),
        ])
        let json = try read { transaction in
            try transaction.json(Query(ShoppingStore.listType, sort: [SortDescriptor("name")]), projection: projection)
        }
        return try ShoppingStore.ListSummary.decode(json, countKey: "items")
    }

    /// Two indexed look-ups in one read transaction.
    func namedRecords(list: String, item: String, forAdding: Bool) async throws(RecordError) -> ShoppingStore.NamedRecords {
        try read { transaction in
            guard let found = try transaction.records(matching: ShoppingStore.named(list, type: ShoppingStore.listType)).first else {
                return ShoppingStore.NamedRecords(list: nil, item: nil)
            }
            let foundItem = try transaction.records(matching: ShoppingStore.item(named: item, in: found)).first
            return ShoppingStore.NamedRecords(list: found, item: foundItem)
        }
    }

    func listNameIsFree(_ name: String) async throws(RecordError) -> Bool {
        try read { transaction in try transaction.records(matching: ShoppingStore.named(name, type: ShoppingStore.listType)).isEmpty }
    }

    func apply(_ operation: RecordOperation) async throws(RecordError) -> OperationResult {
        try write { transaction in try transaction.apply(operation) }
    }

    /// A command's look-ups and its one write never go on after the write fails, so its write
    /// needs no savepoint of its own: a failure rolls the whole back (inside `-1`, the script's
    /// transaction decides).
    func asOneUnit<T>(_ body: () async throws(RecordError) -> T) async throws(RecordError) -> T {
        do {
            return try await database.inOneTransaction(undoing: .wholeTransaction) { try await body() }
        } catch {
            throw RecordError(wrapping: error)
        }
    }

    /// The database's synchronous `read`, on the calling thread (inside `-1`'s transaction when
    /// there is one), its errors typed.
    private func read<T>(_ body: (RecordTransaction) throws -> T) throws(RecordError) -> T {
        do {
            return try database.read(body)
        } catch {
            throw RecordError(wrapping: error)
        }
    }

    /// The database's synchronous `write`, its errors typed.
    private func write<T>(_ body: (RecordTransaction) throws -> T) throws(RecordError) -> T {
        do {
            return try database.write(body)
        } catch {
            throw RecordError(wrapping: error)
        }
    }

    func execute(_ document: String) async throws(RecordError) -> GraphQLResponse {
        await queryEngine.execute(document)
    }

    func watch(_ document: String) async throws(RecordError) -> AsyncThrowingStream<GraphQLResponse, any Error> {
        let engine = queryEngine
        let operation: PreparedOperation
        do throws(RequestFailure) {
            operation = try await engine.prepare(document: document)
        } catch {
            let response = error.response
            return AsyncThrowingStream { continuation in
                continuation.yield(response)
                continuation.finish()
            }
        }
        let results = engine.subscribe(operation)
        return AsyncThrowingStream { continuation in
            let task = Task {
                for await response in results { continuation.yield(response) }
                continuation.finish()
            }
            continuation.onTermination = { _ in task.cancel() }
        }
    }

    func explain(_ document: String) async throws(RecordError) -> String {
        try await queryEngine.explain(document)
    }

    func explain(_ query: Query) async throws(RecordError) -> QueryExplanation {
        try database.explain(query)
    }

    func schemaDefinitionLanguage() async throws(RecordError) -> String {
        try await queryEngine.schemaDefinitionLanguage()
    }

    func applySchemaChanges(_ changes: [SchemaChange]) async throws(RecordError) {
        try database.applySchemaChanges(changes)
    }

    func importSchema(ckdb text: String) async throws(RecordError) -> [String] {
        try database.importSchema(ckdb: text).map(\.description)
    }

    func schemaHistory() async throws(RecordError) -> [SchemaHistoryRow] {
        try database.schemaHistory().map { SchemaHistoryRow(version: $0.version, appliedAt: $0.appliedAt, change: $0.change) }
    }

    func transactions() async throws(RecordError) -> [TransactionRow] {
        try database.transactions().map(Self.row)
    }

    func transaction(id: String) async throws(RecordError) -> TransactionRow {
        Self.row(try database.transaction(id: id))
    }

    func deleteTransaction(id: String) async throws(RecordError) {
        try database.deleteTransaction(id: id)
    }

    private static func row(_ stored: StoredTransaction) -> TransactionRow {
        TransactionRow(id: stored.id, createdAt: stored.createdAt, request: document(stored.request), result: document(stored.result))
    }

    /// Stored JSON text as a value; JSON text kept as a JSON string is unwrapped once.
    private static func document(_ text: String) -> JSONValue {
        let value = JSONValue(parsing: text) ?? .string(text)
        if case .string(let inner) = value, let nested = JSONValue(parsing: inner) { return nested }
        return value
    }
}
