import Foundation
import GraphQL
import RecordKit

/// Runs the data fields of a query plan inside one read transaction, one engine call (one SQL
/// statement building the JSON) per field, and assembles the response around the JSON texts.
enum QueryExecution {
    /// The JSON text of every root field the transaction answers, by position in the plan;
    /// `nil` for the fields answered outside it (introspection) and for absent assets. `statements` holds the
    /// statement each `T(...)` field compiled to, by position: those of an earlier run of the
    /// same plan are run again as they are, the missing ones compiled and filled in.
    static func run(_ plan: QueryPlan, statements: inout [CompiledJSONQuery?], in transaction: RecordTransaction) throws(GraphQLFailure) -> [String?] {
        if statements.count != plan.fields.count {
            statements = Array(repeating: nil, count: plan.fields.count)
        }
        var results: [String?] = []
        for (index, field) in plan.fields.enumerated() {
            do {
                results.append(try json(of: field.step, statement: &statements[index], in: transaction))
            } catch {
                throw GraphQLFailure(engineError: error, in: transaction, at: field.node, path: [.key(field.key)])
            }
        }
        try ResponseLimits.check(plan, results: results, schema: transaction.schema)
        return results
    }

    private static func json(of step: QueryPlan.Step, statement: inout CompiledJSONQuery?, in transaction: RecordTransaction) throws -> String? {
        switch step {
        case .records(let query, let projection):
            let compiled = try statement ?? transaction.compileJSON(query, projection: projection)
            statement = compiled
            return try transaction.json(compiled)
        case .aggregate(let query, let aggregation):
            let compiled = try statement ?? transaction.compileAggregateJSON(query, aggregation: aggregation)
            statement = compiled
            return try transaction.json(compiled)
        case .page(let query, let after, let members):
            return try page(query, after: after, members: members, in: transaction)
        case .constant(let json):
            return json
        case .asset(let sha256):
            return try transaction.assetContent(sha256: sha256).map { JSONWriter.string($0.base64EncodedString()) }
        case .introspection:
            return nil
        }
    }

    /// The `TPage` object: one page per distinct records selection (usually one).
    private static func page(_ query: Query, after: String?, members: [QueryPlan.PageMember], in transaction: RecordTransaction) throws -> String {
        var pages: [Projection: (records: String, cursor: String?)] = [:]
        for case .records(_, let projection) in members where pages[projection] == nil {
            pages[projection] = try transaction.jsonPage(query, after: after, projection: projection)
        }
        let cursor: String?
        if let page = pages.first?.value {
            cursor = page.cursor
        } else {
            cursor = try transaction.jsonPage(query, after: after, projection: Projection([])).cursor
        }
        let parts = members.map { member in
            switch member {
            case .records(let key, let projection): JSONWriter.string(key) + ":" + (pages[projection]?.records ?? "[]")
            case .cursor(let key): JSONWriter.string(key) + ":" + (cursor.map(JSONWriter.string) ?? "null")
            case .constant(let key, let json): JSONWriter.string(key) + ":" + json
            }
        }
        return "{" + parts.joined(separator: ",") + "}"
    }

    /// `{"key":value,…}` of the root fields, in order; `results` holds each field's JSON text.
    static func data(_ plan: QueryPlan, results: [String?]) -> String {
        let members = zip(plan.fields, results).map { field, json in JSONWriter.string(field.key) + ":" + (json ?? "null") }
        return "{" + members.joined(separator: ",") + "}"
    }
}

extension GraphQLFailure {
    /// A failure of the engine while running the field at `node` in `transaction`: the engine's
    /// errors keep their code; SQLite's get the code and advice RecordKit gives them.
    init(engineError error: any Error, in transaction: RecordTransaction, at node: any Node, path: [GraphQLResponseError.PathElement]) {
        if let error = error as? GraphQLFailure {
            self = error.running()
        } else {
            self.init(transaction.recordError(for: error), at: node, path: path, ran: true)
        }
    }
}
