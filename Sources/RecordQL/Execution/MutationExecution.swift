import GraphQL
import RecordKit

/// Runs the root fields of a mutation in order inside one write transaction, projecting each
/// saved record with the engine's JSON in the same transaction. The first failure throws, so
/// the caller's transaction rolls back and nothing applies.
enum MutationExecution {
    /// The data object of the response, as JSON text.
    static func run(_ plan: MutationPlan, in transaction: RecordTransaction) throws(GraphQLFailure) -> String {
        var members: [String] = []
        var saved: [(json: String, recordType: String, projection: Projection)] = []
        for field in plan.fields {
            do {
                let json = try apply(field.step, in: transaction)
                members.append(JSONWriter.string(field.key) + ":" + json)
                if case .save(_, let recordType, let projection) = field.step {
                    saved.append((json, recordType, projection))
                }
            } catch {
                throw GraphQLFailure(engineError: error, in: transaction, at: field.node, path: [.key(field.key)])
            }
        }
        try ResponseLimits.check(saved: saved, maximum: plan.maximumRecords, schema: transaction.schema)
        return "{" + members.joined(separator: ",") + "}"
    }

    private static func apply(_ step: MutationPlan.Step, in transaction: RecordTransaction) throws -> String {
        switch step {
        case .save(let operation, let recordType, let projection):
            guard let saved = try transaction.apply(operation).record else {
                throw RecordError(.internalError, "a save of a \(recordType) record returned no record", recordType: recordType)
            }
            return try project(saved, projection: projection, in: transaction)
        case .delete(let recordType, let recordName, let members):
            guard let existing = try transaction.fetch(recordName: recordName), existing.recordType == recordType else {
                throw RecordError(.unknownItem, "there is no \(recordType) record named '\(recordName)'", recordType: recordType, recordName: recordName)
            }
            let deleted = try transaction.apply(.delete(recordName: recordName)).deletedRecordNames
            let parts = members.map { member in
                switch member {
                case .deleted(let key): JSONWriter.string(key) + ":[" + deleted.map(JSONWriter.string).joined(separator: ",") + "]"
                case .constant(let key, let json): JSONWriter.string(key) + ":" + json
                }
            }
            return "{" + parts.joined(separator: ",") + "}"
        case .constant(let json):
            return json
        }
    }

    private static func project(_ record: Record, projection: Projection, in transaction: RecordTransaction) throws -> String {
        guard let json = try transaction.json(recordName: record.recordName, recordType: record.recordType, projection: projection) else {
            throw RecordError(.internalError, "\(record.recordType) '\(record.recordName)' was saved but cannot be read back", recordType: record.recordType, recordName: record.recordName)
        }
        return json
    }
}
