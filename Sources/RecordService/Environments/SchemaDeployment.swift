public import RecordKit

/// `shop schema deploy`: the development environment's schema applied to production, as
/// CloudKit's console deploys a container's schema. Additive only: each record type, field or
/// index flag that production has and development lacks, and each field whose type differs, is
/// refused by name, and then nothing is applied.
public enum SchemaDeployment {
    /// What a deploy did: the changes applied, and the rules it left for later.
    public struct Outcome: Sendable {
        /// The changes applied, none when production already had them.
        public var applied: [SchemaChange]
        /// The rules (`NOT EMPTY`, `UNIQUE`, a reference's declared type) production's records
        /// break yet, each with why, left out when deploying with `deferringRules`.
        public var deferred: [(change: SchemaChange, reason: String)]
    }

    /// Applies the schema of the database at `development` to the one at `production` (created
    /// when missing) and returns the changes applied, none when production already has it.
    ///
    /// - Throws: ``RecordError`` `schemaViolation` naming every change that is not additive, or
    ///   a rule production's records break; nothing is applied then.
    public static func deploy(from development: RecordDatabase, to production: RecordDatabase) async throws(RecordError) -> [SchemaChange] {
        try await deploy(from: development, to: production, deferringRules: false).applied
    }

    /// As ``deploy(from:to:)``; with `deferringRules`, a rule production's records break yet
    /// (a new field declared `NOT EMPTY` on records that have no value for it) does not hold the
    /// rest back: everything else is applied, the field without its rule, and the rule is named
    /// in ``Outcome/deferred`` with why, to deploy again once production's records follow it.
    public static func deploy(
        from development: RecordDatabase, to production: RecordDatabase, deferringRules: Bool
    ) async throws(RecordError) -> Outcome {
        let schema = try await development.schema().schema
        do {
            return Outcome(applied: try await production.updateSchema(to: schema, mode: .exact).changes, deferred: [])
        } catch let refusal where refusal.code == .schemaViolation {
            let changes = try await production.schema().schema.changes(to: schema, mode: .exact)
            guard deferringRules else {
                // Every change adds, so production's records broke a rule: the rest may go first.
                guard changes.allSatisfy(\.isAdditive) else { throw refusal }
                var refused = refusal
                refused.message += "; or deploy the rest now and the rule once they follow it: shop schema deploy --defer-rules"
                throw refused
            }
            let (structure, rules) = SchemaRules.separate(changes)
            // What is not additive is refused as before: only rules are deferred.
            _ = try await production.apply(structure)
            var outcome = Outcome(applied: structure, deferred: [])
            for rule in rules {
                do {
                    _ = try await production.apply([rule])
                    outcome.applied.append(rule)
                } catch let error where error.code == .schemaViolation {
                    outcome.deferred.append((rule, error.message))
                }
            }
            return outcome
        }
    }
}
