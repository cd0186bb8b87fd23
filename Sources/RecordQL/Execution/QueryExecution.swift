import Foundation
import GraphQL
import RecordKit

/// Turns the data fields of a query plan into the reads of one ``RecordStore`` read unit (one
/// read — one statement building the JSON — per field), and assembles the response around the
/// JSON texts the store returns.
enum QueryExecution {
    /// The reads of a plan, and which of them answer each root field.
    struct Reads {
        var reads: [RecordRead] = []
        /// By position in the plan.
        var fields: [FieldReads] = []
    }

    /// The reads that answer one root field.
    enum FieldReads {
        /// Answered without the store (a constant, introspection).
        case none
        /// The read at this index.
        case one(Int)
        /// A `TPage` field: the page read of each distinct records selection, by projection,
        /// and the read of the cursor alone when no records are selected.
        case page([Projection: Int], cursorOnly: Int?)
    }

    /// The reads that answer `plan`'s data fields.
    static func reads(of plan: QueryPlan) -> Reads {
        var reads = Reads()
        func add(_ read: RecordRead) -> Int {
            reads.reads.append(read)
            return reads.reads.count - 1
        }
        for field in plan.fields {
            switch field.step {
            case .records(let query, let projection):
                reads.fields.append(.one(add(.json(query, projection))))
            case .aggregate(let query, let aggregation):
                reads.fields.append(.one(add(.aggregateJSON(query, aggregation))))
            case .page(let query, let after, let members):
                var pages: [Projection: Int] = [:]
                for case .records(_, let projection) in members where pages[projection] == nil {
                    pages[projection] = add(.jsonPage(query, after: after, projection))
                }
                let cursorOnly = pages.isEmpty ? add(.jsonPage(query, after: after, Projection([]))) : nil
                reads.fields.append(.page(pages, cursorOnly: cursorOnly))
            case .asset(let sha256):
                reads.fields.append(.one(add(.asset(sha256: sha256))))
            case .changes(let plan):
                reads.fields.append(.one(add(.changes(plan.request))))
            case .constant, .introspection:
                reads.fields.append(.none)
            }
        }
        return reads
    }

    /// The JSON text of every root field, by position in the plan, from the store's `answers`
    /// to `reads`; `nil` for the fields answered outside the store (introspection) and for
    /// absent assets. The first field whose read failed fails the request, located at it.
    static func results(
        of plan: QueryPlan, reads: Reads, answers: [Result<RecordReadResult, RecordError>], context: SchemaContext
    ) throws(GraphQLFailure) -> [String?] {
        var results: [String?] = []
        for (field, fieldReads) in zip(plan.fields, reads.fields) {
            do throws(RecordError) {
                results.append(try json(of: field.step, reads: fieldReads, answers: answers))
            } catch {
                throw GraphQLFailure(error, at: field.node, path: [.key(field.key)], stage: .execution)
            }
        }
        try ResponseLimits.check(plan, results: results, schema: context.schema)
        return results
    }

    private static func json(
        of step: QueryPlan.Step, reads: FieldReads, answers: [Result<RecordReadResult, RecordError>]
    ) throws(RecordError) -> String? {
        switch (step, reads) {
        case (.constant(let json), _):
            return json
        case (.records, .one(let index)), (.aggregate, .one(let index)):
            guard case .json(let json) = try answers[index].get() else { throw unexpected(step) }
            return json
        case (.asset, .one(let index)):
            guard case .asset(let content) = try answers[index].get() else { throw unexpected(step) }
            return content.map { JSONWriter.string($0.base64EncodedString()) }
        case (.changes(let plan), .one(let index)):
            guard case .changes(let page) = try answers[index].get() else { throw unexpected(step) }
            return plan.json(page)
        case (.page(_, _, let members), .page(let indices, let cursorOnly)):
            var pages: [Projection: (records: String, cursor: String?)] = [:]
            for (projection, index) in indices {
                guard case .jsonPage(let records, let cursor) = try answers[index].get() else { throw unexpected(step) }
                pages[projection] = (records, cursor)
            }
            var cursor = pages.first?.value.cursor
            if let cursorOnly {
                guard case .jsonPage(_, let next) = try answers[cursorOnly].get() else { throw unexpected(step) }
                cursor = next
            }
            let parts = members.map { member in
                switch member {
                case .records(let key, let projection): JSONWriter.string(key) + ":" + (pages[projection]?.records ?? "[]")
                case .cursor(let key): JSONWriter.string(key) + ":" + (cursor.map(JSONWriter.string) ?? "null")
                case .constant(let key, let json): JSONWriter.string(key) + ":" + json
                }
            }
            return "{" + parts.joined(separator: ",") + "}"
        default:
            return nil
        }
    }

    private static func unexpected(_ step: QueryPlan.Step) -> RecordError {
        RecordError(.internalError, "the store answered a read of \(step) with another kind of result")
    }

    /// `{"key":value,…}` of the root fields, in order; `results` holds each field's JSON text.
    static func data(_ plan: QueryPlan, results: [String?]) -> String {
        let members = zip(plan.fields, results).map { field, json in JSONWriter.string(field.key) + ":" + (json ?? "null") }
        return "{" + members.joined(separator: ",") + "}"
    }
}
