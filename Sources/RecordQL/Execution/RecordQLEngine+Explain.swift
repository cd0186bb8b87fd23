import GraphQL
import RecordKit

extension RecordQLEngine {
    /// How a query would run: for each root field, the one SQL statement the engine compiles it
    /// into and SQLite's plan for it. Nothing is executed.
    ///
    /// ```
    /// Items
    ///   SELECT json_group_array(json(o)) FROM (SELECT json_object(…) AS o FROM "Items" AS t0 WHERE …)
    ///   plan:
    ///     CO-ROUTINE (subquery-1)
    ///       SEARCH t0 USING COVERING INDEX _idx(Items:list:name) (list=?)
    ///     SCAN (subquery-1)
    /// ```
    /// An aliased field is headed `alias: field`.
    public func explain(_ document: String, variables: [String: Map] = [:], operationName: String? = nil) async throws(RecordError) -> String {
        do throws(GraphQLFailure) {
            return try database.read(failing: { (transaction: RecordTransaction) throws(GraphQLFailure) -> String in
                let request = try prepare(document, variables: variables, operationName: operationName, in: transaction)
                guard request.operation.operation == .query else {
                    throw GraphQLFailure(.invalidArguments, "explain shows how a query runs; mutations are not explained", at: [request.operation])
                }
                let plan = try QueryPlan(request)
                var sections: [String] = []
                for field in plan.fields {
                    do {
                        sections.append(try Self.explain(field, in: transaction))
                    } catch {
                        throw GraphQLFailure(engineError: error, in: transaction, at: field.node, path: [.key(field.key)])
                    }
                }
                return sections.joined(separator: "\n")
            })
        } catch {
            throw RecordError(error, document: document)
        }
    }

    /// The GraphQL schema of the current record types, as SDL.
    public func schemaDefinitionLanguage() throws(RecordError) -> String {
        try database.read { transaction in
            try schemas.context(for: transaction.schema, version: transaction.schemaVersion)
        }.generated.sdl
    }

    private static func explain(_ field: PlannedField<QueryPlan.Step>, in transaction: RecordTransaction) throws -> String {
        let heading = field.key == field.field.name ? field.key : "\(field.key): \(field.field.name)"
        let explanation: QueryExplanation
        switch field.step {
        case .records(let query, let projection):
            explanation = try transaction.explainJSON(query, projection: projection)
        case .page(let query, _, let members):
            let projection = members.lazy.compactMap { member -> Projection? in
                if case .records(_, let projection) = member { projection } else { nil }
            }.first
            explanation = try transaction.explainJSON(query, projection: projection ?? Projection([]))
        case .aggregate(let query, let aggregation):
            explanation = try transaction.explainAggregateJSON(query, aggregation: aggregation)
        case .constant, .introspection:
            return heading + "\n  answered from the schema, without SQL\n"
        case .asset:
            return heading + "\n  one lookup of the asset by its sha256\n"
        }
        let plan = explanation.plan.map { "    " + $0 }.joined(separator: "\n")
        return heading + "\n  " + explanation.sql + "\n  plan:\n" + plan + "\n"
    }
}

extension RecordError {
    /// The first error of a failed request, located in `document`.
    init(_ failure: GraphQLFailure, document: String) {
        let first = failure.errors.first ?? GraphQLResponseError(.internalError, "the request failed")
        let location = first.locations.first.map { location in
            let lines = document.split(separator: "\n", omittingEmptySubsequences: false)
            let text = (1...lines.count).contains(location.line) ? String(lines[location.line - 1]) : ""
            return SourceLocation(line: location.line, column: location.column, lineText: text)
        }
        self.init(first.code, first.message, location: location)
    }
}
