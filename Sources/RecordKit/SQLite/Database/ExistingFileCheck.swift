import Foundation
internal import GRDB

/// Looks at an existing database file before the engine opens it for writing, so that a file
/// it must not use is refused with not one byte of it changed: opening for writing switches the
/// file to WAL and writes to it, which would alter another program's SQLite database or a
/// database that a newer version of shop has migrated.
enum ExistingFileCheck {
    /// Throws when `path` names a device, a named pipe or a socket (``refuseSpecialFile(_:)``),
    /// or when the non-empty file there is an SQLite database of another program (it has tables
    /// but not the engine's migration table) or was migrated by a newer version. Files that are
    /// missing or empty are new databases; files SQLite cannot read fail here as they would when
    /// opened.
    static func check(_ path: String) throws {
        try refuseSpecialFile(path)
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

    /// Throws when `path` names a device, a named pipe or a socket: SQLite would open it, fail
    /// to read it as a disk I/O error, and leave a `-journal` file beside it (in `/dev` for
    /// `/dev/null`).
    static func refuseSpecialFile(_ path: String) throws(RecordError) {
        var status = stat()
        guard stat(path, &status) == 0 else { return }
        let kind: String
        switch status.st_mode & S_IFMT {
        case S_IFCHR, S_IFBLK: kind = "a device"
        case S_IFIFO: kind = "a named pipe (FIFO)"
        case S_IFSOCK: kind = "a socket"
        default: return
        }
        throw RecordError(
            .invalidArguments, "cannot open \(path): it is \(kind), not a database file", reason: .notADatabase, remedy: .chooseAnotherDatabase)
    }
}
