public import Foundation
internal import GRDB

/// Reads and writes the schema kept in the database, with its history.
enum SchemaStorage {
    /// The schema version (`PRAGMA user_version`); 0 before the bootstrap schema is applied.
    static func version(_ db: Database) throws -> Int {
        // Read at the start of every transaction: a cached statement, not one prepared each time.
        try Int.fetchOne(db.cachedStatement(sql: "PRAGMA user_version")) ?? 0
    }

    /// The stored schema.
    static func load(_ db: Database) throws -> Schema {
        guard let json = try String.fetchOne(db, sql: "SELECT value FROM _meta WHERE key = 'schema'") else {
            return Schema()
        }
        do {
            return try JSONDecoder().decode(Schema.self, from: Data(json.utf8))
        } catch {
            throw RecordError(.internalError, "the stored schema cannot be read; the database may be damaged", underlyingError: error)
        }
    }

    /// Applies `changes` to `current`: checks them all, runs the DDL, stores the new schema,
    /// bumps the version and records each change in the history. Runs inside the caller's
    /// write transaction, so a failure anywhere applies nothing.
    static func apply(_ changes: [SchemaChange], to current: Schema, in db: Database) throws -> Schema {
        let updated = try current.applying(changes)
        guard updated != current else { return current }
        try StoredRuleCheck.check(from: current, to: updated, in: db)
        for statement in SchemaDDL.statements(from: current, to: updated) {
            try db.execute(sql: statement)
        }
        let json = String(decoding: try JSONEncoder.sorted.encode(updated), as: UTF8.self)
        try db.execute(sql: "INSERT OR REPLACE INTO _meta(key, value) VALUES ('schema', ?)", arguments: [json])
        let version = try self.version(db) + 1
        try db.execute(sql: "PRAGMA user_version = \(version)")
        let now = Timestamp.milliseconds(Date())
        for change in changes {
            try db.execute(
                sql: "INSERT INTO _schemaHistory(version, appliedAt, change) VALUES (?, ?, ?)",
                arguments: [version, now, change.description]
            )
        }
        return updated
    }

    /// Every applied change, oldest first.
    static func history(_ db: Database) throws -> [SchemaHistoryEntry] {
        try Row.fetchAll(db, sql: "SELECT version, appliedAt, change FROM _schemaHistory ORDER BY id").map { row in
            SchemaHistoryEntry(
                version: row["version"],
                appliedAt: Timestamp.date(milliseconds: row["appliedAt"]),
                change: row["change"]
            )
        }
    }
}

/// One applied schema change.
public struct SchemaHistoryEntry: Sendable, Hashable {
    /// The schema version the change produced.
    public var version: Int
    public var appliedAt: Date
    /// What changed, e.g. `add field Items.number INT64`.
    public var change: String
}

extension JSONEncoder {
    /// An encoder with sorted keys, so equal values encode to equal bytes.
    static var sorted: JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return encoder
    }
}
