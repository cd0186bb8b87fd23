import Foundation
internal import GRDB

/// Looks at an existing database file before the engine opens it for writing, so that a file
/// it must not use is refused with not one byte of it changed: opening for writing switches the
/// file to WAL and writes to it, which would alter another program's SQLite database or a
/// database that a newer version of shop has migrated.
enum ExistingFileCheck {
    /// Throws when the non-empty file at `path` is an SQLite database of another program (it has
    /// tables but not the engine's migration table) or was migrated by a newer version. Files
    /// that are missing or empty are new databases; files SQLite cannot read fail here as they
    /// would when opened.
    static func check(_ path: String) throws {
        guard let size = try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int, size > 0 else { return }
        var configuration = Configuration()
        configuration.busyMode = BusyRetry.busyMode
        // Read-write, but only read: a read-only connection could not recover the WAL left by a
        // process that was killed, and a write-protected file still opens, for reading.
        let queue = try DatabaseQueue(path: path, configuration: configuration)
        defer { try? queue.close() }
        try queue.read { db in
            if try !db.tableExists("grdb_migrations") {
                let tables = try String.fetchAll(
                    db, sql: "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name LIMIT 4"
                )
                guard tables.isEmpty else {
                    let listed = tables.prefix(3).joined(separator: ", ") + (tables.count > 3 ? ", …" : "")
                    throw RecordError(
                        .invalidArguments,
                        "\(path) is an SQLite database of another program (tables \(listed)), not a shop database; it was left unchanged",
                        reason: .foreignDatabase, remedy: .chooseAnotherDatabase
                    )
                }
            }
            if try InternalTables.migrator.hasBeenSuperseded(db) {
                throw InternalTables.newerVersion(path)
            }
        }
    }
}
