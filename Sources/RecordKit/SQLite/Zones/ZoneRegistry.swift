import Foundation
internal import GRDB

/// The record zones of a database besides its default zone, kept in its `_zones` table: one row
/// per zone, numbered so that a zone deleted and created again under the same name is another
/// zone (its tokens do not carry over).
///
/// A custom zone's records live in a database file of their own beside the database's (see
/// ``RecordDatabase/zone(_:)``), so each zone has its own atomic batches, references and change
/// log, as CloudKit's zones do, and deleting a zone deletes its records with the file.
enum ZoneRegistry {
    /// The migration step that creates the table.
    static func createTable(_ db: Database) throws {
        try db.execute(
            sql: """
                CREATE TABLE _zones (
                    id INTEGER PRIMARY KEY AUTOINCREMENT,
                    name TEXT NOT NULL UNIQUE,
                    createdAt INTEGER NOT NULL
                )
                """)
    }

    static func zones(_ db: Database) throws -> [RecordZone] {
        try Row.fetchAll(db.cachedStatement(sql: "SELECT id, name, createdAt FROM _zones ORDER BY name")).map(zone)
    }

    static func zone(named name: String, _ db: Database) throws -> RecordZone? {
        try Row.fetchOne(db.cachedStatement(sql: "SELECT id, name, createdAt FROM _zones WHERE name = ?"), arguments: [name]).map(zone)
    }

    /// Registers `name`, or returns it as it is when it exists.
    static func create(_ name: String, _ db: Database) throws -> RecordZone {
        if let existing = try zone(named: name, db) { return existing }
        try db.cachedStatement(sql: "INSERT INTO _zones(name, createdAt) VALUES (?, ?)")
            .execute(arguments: [name, Timestamp.milliseconds(.now)])
        guard let created = try zone(named: name, db) else {
            throw RecordError(.internalError, "zone '\(name)' was created but cannot be read back")
        }
        return created
    }

    /// Forgets `name`; `false` when there was no such zone.
    static func delete(_ name: String, _ db: Database) throws -> Bool {
        try db.cachedStatement(sql: "DELETE FROM _zones WHERE name = ?").execute(arguments: [name])
        return db.changesCount > 0
    }

    private static func zone(_ row: Row) -> RecordZone {
        RecordZone(name: row["name"], id: row["id"], createdAt: Timestamp.date(milliseconds: row["createdAt"]))
    }
}
