import Foundation
public import GraphQL
public import RecordKit

/// Runs GraphQL documents against a ``RecordStore`` (a ``RecordDatabase``), with the schema
/// generated from its record types (the README's query language section).
///
/// ```swift
/// let engine = RecordQLEngine(database: db)
/// let response = await engine.execute("""
///     { Items(predicate: "list == 'L1'", sort: [{name: ASC}]) { name list { name } } }
///     """)
/// print(response.json)   // {"data":{"Items":[{"name":"Bread","list":{"name":"Groceries"}},…]}}
/// ```
///
/// The pipeline, in two steps a caller may take apart (``prepare(document:variables:operationName:)``,
/// then ``run(_:)``): preparing needs only the schema, never a transaction — the GraphQL schema is
/// generated once per schema version, GraphQLSwift parses and validates the document (validated
/// documents are cached by text and schema context), the operation is chosen, its variables
/// coerced, and it is planned: each root field of a query becomes one ``RecordRead`` that builds
/// its JSON inside the storage, each root field of a mutation one ``RecordWrite``. Query plans are
/// cached by text, operation, variables and schema version (``PlanCache``), so a query asked again
/// exactly as before goes straight to its reads. Running hands the reads to the store in one read
/// transaction, or the writes in one write transaction (atomic; `mutation @transaction(id: "…")`
/// makes it idempotent), at the schema version planned against: when the schema moved meanwhile,
/// the store says so and the request is planned again. Introspection (`__schema`, `__type`) is
/// answered by GraphQLSwift's executor.
public final class RecordQLEngine: Sendable {
    /// The storage the engine reads and writes.
    public let store: any RecordStore
    /// The most records one response may hold, at every level together; past it a request
    /// fails with `limitExceeded` (``ResponseLimits``). `nil` lifts the limit, for a trusted
    /// caller that reads whole tables (a benchmark, an export).
    public let maximumResponseRecords: Int?
    let schemas = SchemaContextCache()
    let documents = DocumentCache()
    let plans = PlanCache()

    /// The default of ``maximumResponseRecords``.
    public static let defaultMaximumResponseRecords = 10_000

    /// How many times a request is planned again when the schema keeps moving under it.
    static let maximumReplans = 8

    /// An engine over `store`; share one per store, as its caches are per engine.
    public init(store: any RecordStore, maximumResponseRecords: Int? = RecordQLEngine.defaultMaximumResponseRecords) {
        self.store = store
        self.maximumResponseRecords = maximumResponseRecords.map { max(0, $0) }
    }

    /// An engine over `database`.
    public convenience init(database: RecordDatabase, maximumResponseRecords: Int? = RecordQLEngine.defaultMaximumResponseRecords) {
        self.init(store: database, maximumResponseRecords: maximumResponseRecords)
    }

    /// Runs `document` (the operation named `operationName` when it holds several) with
    /// `variables`: ``prepare(document:variables:operationName:)`` then ``run(_:)``. Never throws:
    /// failures are in the response's `errors`, their stage in ``GraphQLResponse/failedStage``.
    public func execute(_ document: String, variables: [String: Map] = [:], operationName: String? = nil) async -> GraphQLResponse {
        await execute(document, variables: variables, operationName: operationName, transaction: TransactionOptions())
    }

    /// Runs `document` as ``execute(_:variables:operationName:)`` does, a mutation under the
    /// transaction `transaction` describes (the HTTP service's `Idempotency-Key`, its keys kept
    /// apart per client). ``GraphQLResponse/isReplay`` tells a retry that applied nothing.
    public func execute(
        _ document: String, variables: [String: Map] = [:], operationName: String? = nil, transaction: TransactionOptions
    ) async -> GraphQLResponse {
        do {
            return await run(try await prepare(document: document, variables: variables, operationName: operationName), transaction: transaction)
        } catch {
            return error.response
        }
    }

    /// The `id:` literal of the `@transaction` directive of the mutation in the document `text`,
    /// if it has one: a client sending a document typed by a person names its retries with it
    /// (the service refuses a request naming two transactions). `nil` for a text that does not
    /// parse, or names its ID with a variable.
    public static func transactionID(inDocument text: String) -> String? {
        MutationPlan.transactionID(inDocument: text)
    }

    /// Parses, validates and plans `document` against the current schema, without running it.
    ///
    /// - Throws: ``RequestFailure`` with the stage that failed (parse, validation, variables)
    ///   and the response to give.
    public func prepare(document text: String, variables: [String: Map] = [:], operationName: String? = nil) async throws(RequestFailure) -> PreparedOperation {
        do throws(GraphQLFailure) {
            guard let context = schemas.latest else {
                return try prepare(text, variables: variables, operationName: operationName, context: try await currentContext())
            }
            do throws(GraphQLFailure) {
                return try prepare(text, variables: variables, operationName: operationName, context: context)
            } catch {
                // Planned against the newest schema this engine saw: another process may have
                // changed it since, making the request valid. Ask the store before failing.
                let current = try await currentContext()
                guard current.generation != context.generation else { throw error }
                return try prepare(text, variables: variables, operationName: operationName, context: current)
            }
        } catch {
            throw RequestFailure(error)
        }
    }

    /// Runs a prepared operation, a mutation under the transaction `transaction` describes,
    /// acting for `access`: it reads only what `access` may read, and its writes are checked
    /// against the record types' grants (``AccessPolicy``). Never throws: failures are in the
    /// response's `errors`.
    public func run(
        _ operation: PreparedOperation, transaction: TransactionOptions = TransactionOptions(), access: AccessPolicy = .owner
    ) async -> GraphQLResponse {
        var operation = operation
        do throws(GraphQLFailure) {
            for _ in 0...Self.maximumReplans {
                let outcome: StoreOutcome<MutationExecution.Answer> =
                    switch operation.plan {
                    case .query(let plan): try await query(plan, request: operation.request, access: access).answer
                    case .mutation(let plan): try await mutate(plan, operation: operation, options: transaction, access: access)
                    }
                switch outcome {
                case .completed(let answer):
                    if let key = operation.cacheKey { plans.store(operation.cached(), for: key) }
                    return GraphQLResponse(data: answer.data, isReplay: answer.isReplay)
                case .schemaChanged(let schema):
                    operation = try replan(operation, for: schema)
                }
            }
            throw GraphQLFailure(.internalError, "the schema kept changing while the request ran; send it again", stage: .execution)
        } catch {
            return GraphQLResponse(failure: error)
        }
    }

    /// The request for `text` against `context`: validated document, operation, variables, plan;
    /// a query from the plan cache when it was planned before.
    func prepare(_ text: String, variables: [String: Map], operationName: String?, context: SchemaContext) throws(GraphQLFailure) -> PreparedOperation {
        let key = PlanCache.Key(text: text, generation: context.generation, operationName: operationName, variables: variables)
        if let key, let planned = plans.entry(for: key) { return planned }
        let document = try documents.document(text, for: context, operationName: operationName)
        var request = try PreparedRequest(document: document, context: context, operationName: operationName, variables: variables)
        request.maximumRecords = maximumResponseRecords
        // From here on, failures are field errors of a request that ran (`"data": null`).
        let plan: PreparedOperation.Plan
        do throws(GraphQLFailure) {
            plan = request.operation.operation == .mutation ? .mutation(try MutationPlan(request)) : .query(try QueryPlan(request))
        } catch {
            throw error.running().of(OperationKind(request.operation.operation))
        }
        var cacheKey: PlanCache.Key?
        if case .query = plan { cacheKey = key }
        return PreparedOperation(text: text, operationName: operationName, variables: variables, request: request, plan: plan, cacheKey: cacheKey)
    }

    /// `operation` planned again against `schema`, the store's current one.
    private func replan(_ operation: PreparedOperation, for schema: VersionedSchema) throws(GraphQLFailure) -> PreparedOperation {
        let context: SchemaContext
        do throws(RecordError) {
            context = try schemas.context(for: schema.schema, version: schema.version)
        } catch {
            throw GraphQLFailure(error, at: nil, stage: .execution)
        }
        return try prepare(operation.text, variables: operation.variables, operationName: operation.operationName, context: context)
    }

    /// The context of the store's current schema.
    func currentContext() async throws(GraphQLFailure) -> SchemaContext {
        do throws(RecordError) {
            let current = try await store.schema()
            return try schemas.context(for: current.schema, version: current.version)
        } catch {
            throw GraphQLFailure(error, at: nil, stage: .validation)
        }
    }

    /// Runs a query's reads in one read transaction and returns the data object's JSON; the
    /// introspection fields are answered outside it.
    private func query(_ plan: QueryPlan, request: PreparedRequest, access: AccessPolicy) async throws(GraphQLFailure) -> StoreOutcome<String> {
        let reads = QueryExecution.reads(of: plan)
        let outcome: StoreOutcome<[Result<RecordReadResult, RecordError>]>
        do throws(RecordError) {
            outcome = try await store.read(reads.reads, atSchemaVersion: request.context.generation, access: access)
        } catch {
            throw GraphQLFailure(error, at: nil, stage: .execution)
        }
        let answers: [Result<RecordReadResult, RecordError>]
        switch outcome {
        case .schemaChanged(let schema): return .schemaChanged(schema)
        case .completed(let completed): answers = completed
        }
        var results = try QueryExecution.results(of: plan, reads: reads, answers: answers, context: request.context)
        try await answerIntrospection(plan, request: request, results: &results)
        return .completed(QueryExecution.data(plan, results: results))
    }

    /// Fills the results of the root fields the storage does not answer: introspection,
    /// answered by GraphQLSwift's executor.
    private func answerIntrospection(_ plan: QueryPlan, request: PreparedRequest, results: inout [String?]) async throws(GraphQLFailure) {
        let introspected = plan.fields.filter { if case .introspection = $0.step { true } else { false } }
        guard !introspected.isEmpty else { return }
        let answers = try await Introspection.answer(Set(introspected.map(\.key)), of: request, nodes: introspected.flatMap(\.field.nodes))
        for (index, field) in plan.fields.enumerated() where answers[field.key] != nil {
            if case .introspection = field.step { results[index] = answers[field.key] }
        }
    }

    /// Runs a mutation's writes in one write transaction (stored under its `@transaction` ID or
    /// the options' ID, if any, in the options' scope) and returns the data object's JSON.
    private func mutate(
        _ plan: MutationPlan, operation: PreparedOperation, options: TransactionOptions, access: AccessPolicy
    ) async throws(GraphQLFailure) -> StoreOutcome<MutationExecution.Answer> {
        if let named = plan.transactionID, let given = options.id, named != given {
            throw GraphQLFailure(
                .invalidArguments, "the request names two transactions, '\(given)' and @transaction(id: \"\(named)\"); send one", stage: .execution
            )
        }
        let id = plan.transactionID ?? options.id
        let transaction: TransactionRequest?
        do throws(RecordError) {
            transaction = try id.map { id throws(RecordError) in
                try TransactionRequest(id: options.scope + id, json: operation.storedRequest)
            }
        } catch {
            throw GraphQLFailure(error, at: nil, stage: .execution)
        }
        do throws(GraphQLFailure) {
            return try await MutationExecution.run(plan, in: store, context: operation.request.context, transaction: transaction, access: access)
        } catch let failure where failure.errors.contains(where: { $0.code == .transactionConflict }) {
            // Nothing ran: a request error, naming the ID as the caller gave it (the store names
            // it within its scope).
            throw GraphQLFailure(
                .transactionConflict, "the transaction ID '\(id ?? "")' was used for a different request; send a new one for a new request",
                stage: .transaction)
        }
    }

    /// How many times a document text has been parsed (tests check that repeats are not).
    var documentParseCount: Int { documents.parseCount }
}

extension StoreOutcome where Value == String {
    /// A query's outcome as an answer (never a replay).
    fileprivate var answer: StoreOutcome<MutationExecution.Answer> {
        switch self {
        case .completed(let data): .completed(MutationExecution.Answer(data: data, isReplay: false))
        case .schemaChanged(let schema): .schemaChanged(schema)
        }
    }
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
