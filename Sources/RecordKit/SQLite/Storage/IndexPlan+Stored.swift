internal import GRDB

extension IndexPlan {
    /// Builds again every planned index whose columns differ from the stored one's, for each
    /// record type of the stored schema: the migration that brings the composites of databases
    /// made before they carried the record (``IndexPlan``) up to date.
    static func rebuildChangedIndexes(_ db: Database) throws {
        for type in try SchemaStorage.load(db).recordTypes where !type.isCloudKitSystemType {
            for index in IndexPlan(type).indexes {
                let name = SQLName.unquoted(index.name)
                let stored = try String.fetchAll(db, sql: "SELECT name FROM pragma_index_info(?) ORDER BY seqno", arguments: [name])
                guard stored != index.columns.map(SQLName.unquoted) else { continue }
                try db.execute(sql: "DROP INDEX IF EXISTS \(index.name)")
                try db.execute(sql: index.createStatement(on: type.name))
            }
        }
    }
}
