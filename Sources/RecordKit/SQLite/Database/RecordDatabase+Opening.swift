import Foundation
internal import GRDB

extension RecordDatabase {
    /// Opens the storage at `location` (in memory when `nil`): refuses, untouched, a file of
    /// another program or one migrated by a newer version (``ExistingFileCheck``), runs the
    /// engine's migrations and applies `bootstrap` to a new database (one without a schema yet).
    ///
    /// Several processes may open a new file at the same moment; this is safe to run again when
    /// the file was busy (``BusyRetry``), and a migration that fails because another process
    /// applied it first is not an error.
    static func openStorage(at location: String?, configuration: Configuration, bootstrap: Schema) throws -> any DatabaseWriter {
        // Checked before any file is made: a schema that cannot be applied must not leave
        // behind a migrated file without one, which a later open would give another bootstrap.
        let initialChanges = Schema().changes(to: bootstrap)
        _ = try Schema().applying(initialChanges)
        let writer: any DatabaseWriter
        if let location {
            try ExistingFileCheck.check(location)
            writer = try DatabasePool(path: location, configuration: configuration)
        } else {
            writer = try DatabaseQueue(configuration: configuration)
        }
        try migrate(writer)
        // An existing database is only read here; the write lock is taken for a new one.
        guard try writer.read(SchemaStorage.version) == 0 else { return writer }
        try writer.write { db in
            guard try SchemaStorage.version(db) == 0 else { return }
            _ = try SchemaStorage.apply(initialChanges, to: Schema(), in: db)
        }
        return writer
    }

    /// Runs the engine's migrations, alongside any other process running them on the same new
    /// file. GRDB reads which migrations are applied before each migration's transaction, so
    /// when two processes migrate together, one fails where the other has just committed
    /// (`table _meta already exists`, `UNIQUE constraint failed: grdb_migrations.identifier`)
    /// and its attempt rolls back. It then runs the migrator again, which applies what is still
    /// missing, until every migration is applied or ``BusyRetry/timeout`` has passed.
    private static func migrate(_ writer: any DatabaseWriter) throws {
        let clock = ContinuousClock()
        let start = clock.now
        while true {
            do {
                try InternalTables.migrator.migrate(writer)
                return
            } catch let error as DatabaseError {
                if try writer.read(InternalTables.migrator.hasCompletedMigrations) { return }
                guard clock.now - start < BusyRetry.timeout else { throw error }
                Thread.sleep(forTimeInterval: .random(in: 0.001...0.01))
            }
        }
    }
}
