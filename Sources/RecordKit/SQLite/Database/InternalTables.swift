internal import GRDB

/// The engine's own tables, created and versioned with GRDB's migrator.
///
/// - `_meta`: the current schema (JSON) under key `schema`, the change log's floor and identity
///   (``RecordTransaction/changeLogFloor()``, ``RecordTransaction/changeLogIdentity()``);
/// - `_schemaHistory`: every applied schema change with its time and resulting version;
/// - `_changes`: the change log, written in the same transaction as each change (``ChangeLog``),
///   with the creator of each deleted record;
/// - `_transactions`: stored results of batches sent with a transaction ID;
/// - `_assets`: ASSET content, once per distinct SHA-256;
/// - `_recordAuthors`: the users who created and last modified records (``RecordAuthors``);
/// - `_zones`: the custom record zones (``ZoneRegistry``).
///
/// The schema version lives in `PRAGMA user_version`, bumped in the transaction that changes
/// the schema, so every connection notices a change made by another one with a header read.
enum InternalTables {
    static let migrator: DatabaseMigrator = {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1") { db in
            try db.execute(
                sql: """
                    CREATE TABLE _meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
                    CREATE TABLE _schemaHistory (
                        id INTEGER PRIMARY KEY,
                        version INTEGER NOT NULL,
                        appliedAt INTEGER NOT NULL,
                        change TEXT NOT NULL
                    );
                    CREATE TABLE _changes (
                        seq INTEGER PRIMARY KEY AUTOINCREMENT,
                        recordType TEXT NOT NULL,
                        recordName TEXT NOT NULL,
                        kind TEXT NOT NULL CHECK (kind IN ('saved', 'deleted')),
                        changeTag TEXT,
                        at INTEGER NOT NULL
                    );
                    CREATE TABLE _transactions (
                        id TEXT PRIMARY KEY,
                        request BLOB NOT NULL,
                        result BLOB NOT NULL,
                        createdAt INTEGER NOT NULL
                    );
                    CREATE TABLE _assets (
                        sha256 TEXT PRIMARY KEY,
                        size INTEGER NOT NULL,
                        content BLOB NOT NULL
                    );
                    """)
        }
        migrator.registerMigration("v2: change log written by the engine") { db in
            // Version 1 wrote the change log with triggers on every record table.
            let triggers = try String.fetchAll(db, sql: "SELECT name FROM sqlite_schema WHERE type = 'trigger' AND name GLOB '_log(*)'")
            for trigger in triggers {
                try db.execute(sql: "DROP TRIGGER \(trigger.quotedDatabaseIdentifier)")
            }
        }
        migrator.registerMigration("v3: change log without AUTOINCREMENT") { db in
            // AUTOINCREMENT wrote sqlite_sequence in every transaction: a third page per
            // single-record update. Pruning never removes the log's last entry (see
            // ChangeLogFloor), so INTEGER PRIMARY KEY alone gives the same increasing sequence:
            // the next seq is max(seq) + 1.
            try db.execute(
                sql: """
                    CREATE TABLE _changes_v3 (
                        seq INTEGER PRIMARY KEY,
                        recordType TEXT NOT NULL,
                        recordName TEXT NOT NULL,
                        kind TEXT NOT NULL CHECK (kind IN ('saved', 'deleted')),
                        changeTag TEXT,
                        at INTEGER NOT NULL
                    );
                    INSERT INTO _changes_v3 SELECT seq, recordType, recordName, kind, changeTag, at FROM _changes ORDER BY seq;
                    DROP TABLE _changes;
                    ALTER TABLE _changes_v3 RENAME TO _changes;
                    DELETE FROM sqlite_sequence WHERE name = '_changes';
                    """)
        }
        migrator.registerMigration("v4: record authors", migrate: RecordAuthors.migrate)
        migrator.registerMigration("v5: record zones", migrate: ZoneRegistry.createTable)
        migrator.registerMigration("v6: change log identity", migrate: RecordTransaction.createChangeLogIdentity)
        migrator.registerMigration("v7: creators of deleted records") { db in
            // A deletion keeps who created the record, so the change feed tells of it only
            // those who could read it (its tombstone names it).
            try db.execute(sql: "ALTER TABLE _changes ADD COLUMN createdBy TEXT")
        }
        return migrator
    }()

    /// The error for a database whose migrations this version does not know.
    static func newerVersion(_ path: String?) -> RecordError {
        RecordError(
            .invalidArguments,
            "\(path ?? "the database") was written by a newer version of shop (its storage format is newer than this version knows)",
            reason: .newerStorageFormat, remedy: .useNewerVersionOrChooseAnotherDatabase
        )
    }
}
