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
                let json = try apply(field.step, in: transaction, saved: &saved)
                members.append(JSONWriter.string(field.key) + ":" + json)
            } catch {
                throw GraphQLFailure(engineError: error, in: transaction, at: field.node, path: [.key(field.key)])
            }
        }
        try ResponseLimits.check(saved: saved, maximum: plan.maximumRecords, schema: transaction.schema)
        return "{" + members.joined(separator: ",") + "}"
    }

    /// Applies `step` and returns its JSON; each record it saved is added to `saved` as projected.
    private static func apply(
        _ step: MutationPlan.Step, in transaction: RecordTransaction, saved: inout [(json: String, recordType: String, projection: Projection)]
    ) throws -> String {
        switch step {
        case .save(let operations, let recordType, let projection, let isList):
            var objects: [String] = []
            objects.reserveCapacity(operations.count)
            for operation in operations {
                guard let record = try transaction.apply(operation).record else {
                    throw RecordError(.internalError, "a save of a \(recordType) record returned no record", recordType: recordType)
                }
                let json = try project(record, projection: projection, in: transaction)
                objects.append(json)
                saved.append((json, recordType, projection))
            }
            guard isList else {
                guard objects.count == 1, let object = objects.first else {
                    throw RecordError(.internalError, "a single save of a \(recordType) record ran \(objects.count) operations", recordType: recordType)
                }
                return object
            }
            return "[" + objects.joined(separator: ",") + "]"
        case .delete(let recordType, let recordNames, let members):
            // Every record must exist and be of the type before any is deleted; one an earlier
            // cascade removed is not deleted twice.
            let existing = try transaction.fetch(recordNames: recordNames)
            let types = Dictionary(existing.map { ($0.recordName, $0.recordType) }, uniquingKeysWith: { first, _ in first })
            for recordName in recordNames where types[recordName] != recordType {
                throw RecordError(.unknownItem, "there is no \(recordType) record named '\(recordName)'", recordType: recordType, recordName: recordName)
            }
            var deleted: [String] = []
            var removed: Set<String> = []
            for recordName in recordNames where !removed.contains(recordName) {
                let names = try transaction.apply(.delete(recordName: recordName)).deletedRecordNames
                deleted += names
                removed.formUnion(names)
            }
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
