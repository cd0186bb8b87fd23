import Foundation
import GraphQL
import RecordKit

/// Runs GraphQL documents against a ``RecordDatabase``, with the schema generated from the
/// database's record types (DESIGN.md §6).
///
/// ```swift
/// let engine = RecordQLEngine(database: db)
/// let response = await engine.execute("""
///     { Items(predicate: "list == 'L1'", sort: [{name: ASC}]) { name list { name } } }
///     """)
/// print(response.json)   // {"data":{"Items":[{"name":"Bread","list":{"name":"Groceries"}},…]}}
/// ```
///
/// The pipeline: the current schema (its GraphQL schema is generated once per schema version);
/// GraphQLSwift parses and validates the document (validated documents are cached by text and
/// schema version); the operation is chosen and its variables coerced; then each root field of a
/// query compiles into one engine call that builds its JSON inside SQLite in one statement, and
/// the response is assembled around those JSON texts. Query plans and their SQL are cached by
/// text, operation, variables and schema version (``PlanCache``), so a query asked again exactly
/// as before goes straight to its SQL. All root fields of a mutation run in one write
/// transaction, atomically; `mutation @transaction(id: "…")` makes it idempotent.
/// Introspection (`__schema`, `__type`) is answered by GraphQLSwift's executor.
public final class RecordQLEngine: Sendable {
    /// The database the engine reads and writes.
    public let database: RecordDatabase
    /// The most records one response may hold, at every level together; past it a request
    /// fails with `limitExceeded` (``ResponseLimits``). `nil` lifts the limit, for a trusted
    /// caller that reads whole tables (a benchmark, an export).
    public let maximumResponseRecords: Int?
    let schemas = SchemaContextCache()
    let documents = DocumentCache()
    let plans = PlanCache()

    /// The default of ``maximumResponseRecords``.
    public static let defaultMaximumResponseRecords = 10_000

    /// An engine over `database`; share one per database, as its caches are per engine.
    public init(database: RecordDatabase, maximumResponseRecords: Int? = RecordQLEngine.defaultMaximumResponseRecords) {
        self.database = database
        self.maximumResponseRecords = maximumResponseRecords.map { max(0, $0) }
    }

    /// Runs `document` (the operation named `operationName` when it holds several) with
    /// `variables`. Never throws: failures are in the response's `errors`.
    public func execute(_ document: String, variables: [String: Map] = [:], operationName: String? = nil) async -> GraphQLResponse {
        await execute(document, variables: variables, operationName: operationName, transaction: TransactionOptions())
    }

    /// Runs `document` as ``execute(_:variables:operationName:)`` does, a mutation under the
    /// transaction `transaction` describes (the HTTP service's `Idempotency-Key`, its keys kept
    /// apart per client). ``GraphQLResponse/isReplay`` tells a retry that applied nothing.
    public func execute(_ document: String, variables: [String: Map] = [:], operationName: String? = nil, transaction: TransactionOptions) async -> GraphQLResponse {
        do {
            return try await run(document, variables: variables, operationName: operationName, transaction: transaction)
        } catch {
            return GraphQLResponse(failure: error)
        }
    }

    /// A request after the read transaction that prepared it: a query with the JSON of its data
    /// fields, or a mutation ready to run.
    private enum Prepared {
        case query(PreparedRequest, QueryPlan, [String?])
        case mutation(PreparedRequest, MutationPlan)
    }

    private func run(_ text: String, variables: [String: Map], operationName: String?, transaction options: TransactionOptions) async throws(GraphQLFailure) -> GraphQLResponse {
        let prepared = try database.read(failing: { (transaction: RecordTransaction) throws(GraphQLFailure) -> Prepared in
            let key = PlanCache.Key(text: text, generation: transaction.schemaVersion, operationName: operationName, variables: variables)
            if let key, let planned = plans.entry(for: key) {
                var statements = planned.statements
                do throws(GraphQLFailure) {
                    return .query(planned.request, planned.plan, try QueryExecution.run(planned.plan, statements: &statements, in: transaction))
                } catch {
                    throw error.running()
                }
            }
            let request = try prepare(text, variables: variables, operationName: operationName, in: transaction)
            // From here on, failures are field errors of a request that ran (`"data": null`).
            do throws(GraphQLFailure) {
                if request.operation.operation == .mutation {
                    return .mutation(request, try MutationPlan(request))
                }
                let plan = try QueryPlan(request)
                var statements: [CompiledJSONQuery?] = []
                let results = try QueryExecution.run(plan, statements: &statements, in: transaction)
                if let key { plans.store(PlanCache.Entry(request: request, plan: plan, statements: statements), for: key) }
                return .query(request, plan, results)
            } catch {
                throw error.running()
            }
        })
        switch prepared {
        case .mutation(let request, let plan):
            let (data, isReplay) = try mutate(plan, request: request, text: text, operationName: operationName, options: options)
            return GraphQLResponse(data: data, isReplay: isReplay)
        case .query(let request, let plan, var results):
            try await answerOutsideTransaction(plan, request: request, results: &results)
            return GraphQLResponse(data: QueryExecution.data(plan, results: results))
        }
    }

    /// The request for `text` against the schema `transaction` sees: validated document,
    /// operation, variables.
    func prepare(_ text: String, variables: [String: Map], operationName: String?, in transaction: RecordTransaction) throws(GraphQLFailure) -> PreparedRequest {
        let context: SchemaContext
        do throws(RecordError) {
            context = try schemas.context(for: transaction.schema, version: transaction.schemaVersion)
        } catch {
            throw GraphQLFailure(error, at: nil, ran: false)
        }
        let document = try documents.document(text, for: context)
        var request = try PreparedRequest(document: document, context: context, operationName: operationName, variables: variables)
        request.maximumRecords = maximumResponseRecords
        return request
    }

    /// Fills the results of the root fields the read transaction left out: introspection,
    /// answered by GraphQLSwift's executor.
    private func answerOutsideTransaction(_ plan: QueryPlan, request: PreparedRequest, results: inout [String?]) async throws(GraphQLFailure) {
        let introspected = plan.fields.filter { if case .introspection = $0.step { true } else { false } }
        guard !introspected.isEmpty else { return }
        let answers = try await Introspection.answer(Set(introspected.map(\.key)), of: request, nodes: introspected.flatMap(\.field.nodes))
        for (index, field) in plan.fields.enumerated() where answers[field.key] != nil {
            if case .introspection = field.step { results[index] = answers[field.key] }
        }
    }

    /// Runs a mutation in one write transaction (stored under its `@transaction` ID or the
    /// options' ID, if any) and returns the data object's JSON, and whether it is a replay.
    private func mutate(
        _ plan: MutationPlan, request: PreparedRequest, text: String, operationName: String?, options: TransactionOptions
    ) throws(GraphQLFailure) -> (String, Bool) {
        let body = { (transaction: RecordTransaction) throws(GraphQLFailure) -> String in try MutationExecution.run(plan, in: transaction) }
        if let named = plan.transactionID, let given = options.id, named != given {
            throw GraphQLFailure(
                .invalidArguments, "the request names two transactions, '\(given)' and @transaction(id: \"\(named)\"); send one", ran: true
            )
        }
        guard let transactionID = plan.transactionID ?? options.id else {
            return (try database.write(failing: body), false)
        }
        let stored = StoredRequest(document: text, operationName: operationName, variables: request.rawVariables)
        return try database.write(transactionID: options.scope + transactionID, request: stored, failing: body)
    }

    /// How many times a document text has been parsed (tests check that repeats are not).
    var documentParseCount: Int { documents.parseCount }
}

/// The transaction a mutation runs under when its document names none, and the scope of its ID.
public struct TransactionOptions: Sendable, Hashable {
    /// The transaction ID of a mutation whose document has no `@transaction(id:)`.
    public var id: String?
    /// Put before the transaction ID (the document's or ``id``) where it is stored, so that the
    /// IDs of different clients never meet.
    public var scope: String

    public init(id: String? = nil, scope: String = "") {
        self.id = id
        self.scope = scope
    }
}

/// The request a `@transaction` mutation is stored under: the same text, operation and
/// variables make a retry; anything else under the same ID is a conflict.
private struct StoredRequest: Encodable {
    var document: String
    var operationName: String?
    var variables: [String: Map]
}
