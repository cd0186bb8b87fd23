import Foundation
import RecordKit
import RecordQL

/// The database fuzzed inputs run against: the schema of `Fuzz/Fixture/schema.ckdb` (the
/// shopping types and a type with a field of every kind) holding the records that
/// `Fuzz/Fixture/records.graphql` creates. The test suite's FuzzRegressionTests use the same files.
public enum FuzzFixture {
    static let folder = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixture")

    /// A new in-memory database with the fixture's schema and records, and an engine over it.
    public static func make() -> (RecordDatabase, RecordQLEngine) {
        do {
            let database = try RecordDatabase.inMemory(bootstrap: try CKDBParser.parse(try text("schema.ckdb")))
            let engine = RecordQLEngine(database: database)
            try fill(engine)
            return (database, engine)
        } catch {
            fatalError("the fuzzing fixture cannot be made: \(error)")
        }
    }

    /// Puts the database back as ``make()`` made it, after a mutation: every record deleted,
    /// the fixture's records created again, stored transactions forgotten.
    public static func reset(_ database: RecordDatabase, _ engine: RecordQLEngine) {
        do {
            try database.write { transaction in
                for type in transaction.schema.recordTypes where !type.isCloudKitSystemType {
                    for record in try transaction.records(matching: Query(type.name)) {
                        _ = try? transaction.delete(recordName: record.recordName)
                    }
                }
            }
            for stored in try database.transactions() {
                try database.deleteTransaction(id: stored.id)
            }
            try fill(engine)
        } catch {
            fatalError("the fuzzing fixture cannot be reset: \(error)")
        }
    }

    private static func fill(_ engine: RecordQLEngine) throws {
        let document = try text("records.graphql")
        let json = Blocking.run { await engine.execute(document).json }
        guard !json.contains("\"errors\"") else {
            throw RecordError(.internalError, "Fuzz/Fixture/records.graphql failed: \(json)")
        }
    }

    private static func text(_ name: String) throws -> String {
        try String(contentsOf: folder.appendingPathComponent(name), encoding: .utf8)
    }
}
