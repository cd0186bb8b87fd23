public import RecordKit

/// `shop schema deploy`: the development environment's schema applied to production, as
/// CloudKit's console deploys a container's schema. Additive only: a record type, field or
/// index flag that production has and development lacks, or a field whose type differs, is
/// refused by name, and then nothing is applied.
public enum SchemaDeployment {
    /// Applies the schema of the database at `development` to the one at `production` (created
    /// when missing) and returns the changes applied, none when production already has it.
    ///
    /// - Throws: ``RecordError`` `schemaViolation` naming the first change that is not additive.
    public static func deploy(from development: RecordDatabase, to production: RecordDatabase) async throws(RecordError) -> [SchemaChange] {
        let schema = try await development.schema().schema
        return try await production.updateSchema(to: schema, mode: .exact).changes
    }
}
