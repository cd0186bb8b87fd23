import Foundation
import GRDB

extension RecordDatabase {
    /// Opens the existing database at `path` for reading only: nothing is written to the file or
    /// beside it, so a file (or folder) without write access can be looked into. When no other
    /// connection has left a write-ahead log (`PATH-wal`), the file is opened as SQLite's
    /// `immutable`: no lock, no `-wal` or `-shm` file made. Every write fails with
    /// `invalidArguments` saying the database is open read-only, and changes nothing.
    ///
    /// A missing file, another program's database, one made by a newer version or one whose
    /// storage this version would still have to migrate are refused with a clear error.
    public static func readOnly(path: String, trace: (@Sendable (String) -> Void)? = nil) throws(RecordError) -> RecordDatabase {
        try RecordDatabase(location: path, bootstrap: Schema(), trace: trace, readOnly: true)
    }

    /// The read-only connection of ``readOnly(path:trace:)``, checked.
    static func openReadOnly(at path: String, configuration base: Configuration) throws -> any DatabaseWriter {
        guard FileManager.default.fileExists(atPath: path) else {
            throw RecordError(.invalidArguments, "there is no database at \(path) to open read-only; check the path")
        }
        try ExistingFileCheck.refuseSpecialFile(path)
        var configuration = base
        configuration.readonly = true
        let hasLog = FileManager.default.fileExists(atPath: path + "-wal")
        let queue = try DatabaseQueue(path: hasLog ? path : immutableURI(path), configuration: configuration)
        try queue.read { db in
            let version = try SchemaStorage.version(db)
            guard try db.tableExists("grdb_migrations"), version > 0 else {
                throw RecordError(
                    .invalidArguments, "\(path) is not a shop database (or an empty one); it was left unchanged", reason: .notADatabase,
                    remedy: .chooseAnotherDatabase)
            }
            if try InternalTables.migrator.hasBeenSuperseded(db) { throw InternalTables.newerVersion(path) }
            guard try InternalTables.migrator.hasCompletedMigrations(db) else {
                throw RecordError(
                    .invalidArguments, "\(path) was made by an older version of shop and must be opened once with write access to bring it up to date")
            }
        }
        return queue
    }

    /// SQLite's URI for `path` opened immutable (percent-encoded so that `?` and `#` in a name
    /// stay part of it).
    private static func immutableURI(_ path: String) -> String {
        let absolute = URL(fileURLWithPath: path).standardizedFileURL.path
        var allowed = CharacterSet.urlPathAllowed
        allowed.remove(charactersIn: "?#%")
        return "file:\(absolute.addingPercentEncoding(withAllowedCharacters: allowed) ?? absolute)?immutable=1"
    }

    /// The error of a write to a database opened with ``readOnly(path:trace:)``.
    var readOnlyRefusal: RecordError {
        RecordError(.invalidArguments, "\(path ?? "the database") is open read-only: this command writes, so it was refused and nothing changed")
    }
}
