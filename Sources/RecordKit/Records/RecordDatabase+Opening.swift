import GRDB

extension RecordDatabase {
    /// Opens the storage at `location` (in memory when `nil`): refuses, untouched, a file of
    /// another program or one migrated by a newer version (``ExistingFileCheck``), runs the
    /// engine's migrations and applies `bootstrap` to a new database.
    ///
    /// Several processes may open a new file at the same moment; this is safe to run again when
    /// the file was busy (``BusyRetry``), and a migration that fails because another process
    /// applied it first is not an error.
    static func openStorage(at location: String?, configuration: Configuration, bootstrap: Schema?) throws -> any DatabaseWriter {
        // Checked before any file is made: a schema that cannot be applied must not leave
        // behind a migrated file without one, which a later open would give the shopping schema.
        let initialChanges = bootstrap.map { Schema().changes(to: $0) }
        if let initialChanges { _ = try Schema().applying(initialChanges) }
        let writer: any DatabaseWriter
        if let location {
            try ExistingFileCheck.check(location)
            writer = try DatabasePool(path: location, configuration: configuration)
        } else {
            writer = try DatabaseQueue(configuration: configuration)
        }
        do {
            try InternalTables.migrator.migrate(writer)
        } catch {
            // GRDB reads which migrations are applied before its migration transaction starts,
            // so two processes creating the same file can both try `v1`; the second fails
            // (`table _meta already exists`) once the first has committed it.
            guard try writer.read(InternalTables.migrator.hasCompletedMigrations) else { throw error }
        }
        // An existing database is only read here; the write lock is taken for a new one.
        guard try writer.read(SchemaStorage.version) == 0 else { return writer }
        try writer.write { db in
            guard try SchemaStorage.version(db) == 0 else { return }
            let changes = try initialChanges ?? Schema().changes(to: Schema.shopping)
            _ = try SchemaStorage.apply(changes, to: Schema(), in: db)
        }
        return writer
    }
}
