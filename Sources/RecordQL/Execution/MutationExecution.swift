import Foundation
import GraphQL
import RecordKit

/// Runs the root fields of a mutation in order as one ``RecordStore`` batch — one write
/// transaction, each saved record projected by the storage in the same transaction — and
/// builds the data object inside it. The first failure throws, so nothing applies.
enum MutationExecution {
    /// The data object of a response, as JSON text, and whether it is the stored one of a
    /// transaction that ran before.
    struct Answer: Sendable {
        var data: String
        var isReplay: Bool
    }

    /// The data object of the response, or the schema the store is at now when the plan's is
    /// not current. The writes act for `access`.
    static func run(
        _ plan: MutationPlan, in store: any RecordStore, context: SchemaContext, transaction: TransactionRequest?, access: AccessPolicy
    ) async throws(GraphQLFailure) -> StoreOutcome<Answer> {
        var writes: [RecordWrite] = []
        /// The field of each write, by index.
        var fieldOfWrite: [Int] = []
        for (index, field) in plan.fields.enumerated() {
            let fieldWrites: [RecordWrite] =
                switch field.step {
                case .save(let operations, _, let projection, _):
                    operations.map { RecordWrite($0, projection: projection) }
                case .delete(let recordType, let recordNames, _):
                    uniqueNames(recordNames).map { RecordWrite(.delete(recordName: $0), recordType: recordType, skipsIfAlreadyDeleted: true) }
                case .requireUnchanged(let checks):
                    checks.map { RecordWrite($0) }
                case .constant:
                    []
                }
            writes += fieldWrites
            fieldOfWrite += Array(repeating: index, count: fieldWrites.count)
        }
        let schema = context.schema
        let response: @Sendable ([RecordWriteResult]) throws -> Data = { results in
            Data(try data(plan, results: results, schema: schema).utf8)
        }
        do {
            switch try await store.modify(writes, atSchemaVersion: context.generation, transaction: transaction, access: access, response: response) {
            case .applied(_, let stored):
                return .completed(Answer(data: try decode(stored), isReplay: false))
            case .replayed(let stored):
                return .completed(Answer(data: try decode(stored), isReplay: true))
            case .schemaChanged(let current):
                return .schemaChanged(current)
            }
        } catch let failure as GraphQLFailure {
            throw failure
        } catch let failure as OperationFailure {
            let fieldIndex = fieldOfWrite[failure.index]
            let field = plan.fields[fieldIndex]
            var path: [GraphQLResponseError.PathElement] = [.key(field.key)]
            // A list form (`createManyT`, `updateManyT`) names the failing element by its index.
            if case .save(_, _, _, true) = field.step, let first = fieldOfWrite.firstIndex(of: fieldIndex) {
                path.append(.index(failure.index - first))
            }
            throw GraphQLFailure(failure.error, at: field.node, path: path, stage: .execution)
        } catch let error as RecordError {
            throw GraphQLFailure(error, at: nil, stage: .execution)
        } catch {
            throw GraphQLFailure(.internalError, "the mutation failed: \(error)", stage: .execution)
        }
    }

    /// The data object built from the batch's `results` (one per field that writes, in order),
    /// or the failure of a response holding too many records, which rolls the batch back.
    private static func data(_ plan: MutationPlan, results: [RecordWriteResult], schema: Schema) throws(GraphQLFailure) -> String {
        var members: [String] = []
        var saved: [(json: String, recordType: String, projection: Projection)] = []
        var remaining = results[...]
        for field in plan.fields {
            let json: String
            switch field.step {
            case .constant(let constant):
                json = constant
            case .save(let operations, let recordType, let projection, let isList):
                var objects: [String] = []
                for _ in operations {
                    guard case .saved(_, let projected?)? = remaining.popFirst() else { throw unexpected(field) }
                    objects.append(projected)
                    saved.append((projected, recordType, projection))
                }
                if isList {
                    json = "[" + objects.joined(separator: ",") + "]"
                } else {
                    guard objects.count == 1, let object = objects.first else { throw unexpected(field) }
                    json = object
                }
            case .delete(_, let recordNames, let deleteMembers):
                var deleted: [String] = []
                for _ in uniqueNames(recordNames) {
                    guard case .deleted(let names)? = remaining.popFirst() else { throw unexpected(field) }
                    deleted += names
                }
                let parts = deleteMembers.map { member in
                    switch member {
                    case .deleted(let key): JSONWriter.string(key) + ":[" + deleted.map(JSONWriter.string).joined(separator: ",") + "]"
                    case .constant(let key, let json): JSONWriter.string(key) + ":" + json
                    }
                }
                json = "{" + parts.joined(separator: ",") + "}"
            case .requireUnchanged(let checks):
                var checked: [String] = []
                for _ in checks {
                    guard case .unchanged(let recordName)? = remaining.popFirst() else { throw unexpected(field) }
                    checked.append(JSONWriter.string(recordName))
                }
                json = "[" + checked.joined(separator: ",") + "]"
            }
            members.append(JSONWriter.string(field.key) + ":" + json)
        }
        try ResponseLimits.check(saved: saved, maximum: plan.maximumRecords, schema: schema)
        return "{" + members.joined(separator: ",") + "}"
    }

    /// `names` without repeats, in order: a record is deleted once.
    private static func uniqueNames(_ names: [String]) -> [String] {
        var seen: Set<String> = []
        return names.filter { seen.insert($0).inserted }
    }

    private static func unexpected(_ field: PlannedField<MutationPlan.Step>) -> GraphQLFailure {
        GraphQLFailure(.internalError, "the store answered \(field.key) with another kind of result", at: [field.node], stage: .execution)
    }

    /// The data object stored as the batch's response: its JSON text (a JSON string of that
    /// text, as stored before, is read too).
    private static func decode(_ stored: Data) throws(GraphQLFailure) -> String {
        guard stored.first == UInt8(ascii: "\"") else { return String(decoding: stored, as: UTF8.self) }
        guard case .string(let data)? = try? JSONValue.parse(utf8: stored) else {
            throw GraphQLFailure(
                .internalError,
                "the stored result of the transaction is not the text of a data object; forget the transaction (delete it by its ID) and send the request again",
                stage: .execution)
        }
        return data
    }
}
