/// The SQL statements that take storage from one schema to a later, additive one. Pure.
///
/// New record types get a table, indexes and, when they have SEARCHABLE
/// fields, an FTS5 table kept in sync by triggers. New fields are `ALTER TABLE … ADD COLUMN`,
/// which SQLite does without rewriting rows, so a table of a million rows gains a field as fast
/// as an empty one. New index flags create the indexes they imply; a changed set of SEARCHABLE
/// fields rebuilds that type's FTS5 table; a new `UNIQUE (…)` line gets its unique index
/// (``StoredRuleCheck`` has first made sure the stored records keep it).
enum SchemaDDL {
    static func statements(from old: Schema, to new: Schema) -> [String] {
        var statements: [String] = []
        for type in new.recordTypes where !type.isCloudKitSystemType {
            let previous = old.recordType(named: type.name)
            if previous == nil {
                statements += createTable(type)
            } else if let previous {
                for field in type.userFields where previous.field(named: field.name) == nil {
                    statements += addColumns(field, to: type.name)
                }
            }
            let oldIndexes = Set(previous.map { IndexPlan($0).createStatements(on: $0.name) } ?? [])
            statements += IndexPlan(type).createStatements(on: type.name).filter { !oldIndexes.contains($0) }
            for constraint in type.uniqueConstraints where previous?.uniqueConstraint(matching: constraint) == nil {
                statements.append(uniqueIndex(constraint, on: type.name))
            }
            let searchable = type.searchableFieldNames
            if searchable != (previous?.searchableFieldNames ?? []) {
                statements += fullText(for: type.name, fields: searchable, replacing: !(previous?.searchableFieldNames ?? []).isEmpty)
            }
        }
        return statements
    }

    private static func createTable(_ type: RecordType) -> [String] {
        var columns = [
            "\(SQLName.rowID) INTEGER PRIMARY KEY",
            "\(SQLName.recordName) TEXT NOT NULL UNIQUE",
            "\(SQLName.createdAt) INTEGER NOT NULL",
            "\(SQLName.modifiedAt) INTEGER NOT NULL",
            "\(SQLName.changeTag) TEXT NOT NULL",
        ]
        columns += type.userFields.flatMap(columnDefinitions)
        return ["CREATE TABLE \(SQLName.table(type.name)) (\(columns.joined(separator: ", ")))"]
    }

    private static func addColumns(_ field: FieldDefinition, to type: String) -> [String] {
        columnDefinitions(field).map { "ALTER TABLE \(SQLName.table(type)) ADD COLUMN \($0)" }
    }

    private static func columnDefinitions(_ field: FieldDefinition) -> [String] {
        let column = "\(SQLName.column(field.name)) \(field.type.sqlAffinity)"
        if field.type == .reference {
            return [column, "\(SQLName.actionColumn(field.name)) INTEGER"]
        }
        return [column]
    }

    /// The unique index keeping `constraint`: partial, over the records that have every one of
    /// its fields, so absent values are never compared (and queries' plans are left alone).
    static func uniqueIndex(_ constraint: UniqueConstraint, on type: String) -> String {
        let columns = constraint.fields.map(SQLName.column)
        return "CREATE UNIQUE INDEX IF NOT EXISTS \(SQLName.object("unique", type, constraint.fields)) ON \(SQLName.table(type))"
            + "(\(columns.joined(separator: ", "))) WHERE \(columns.map { "\($0) IS NOT NULL" }.joined(separator: " AND "))"
    }

    /// (Re)creates the FTS5 table of `type` over `fields` and the triggers that keep it in sync.
    private static func fullText(for type: String, fields: [String], replacing: Bool) -> [String] {
        let fts = SQLName.fullTextTable(type)
        let table = SQLName.table(type)
        let triggers = ["insert", "delete", "update"].map { SQLName.object("fts", type, [$0]) }
        var statements: [String] = []
        if replacing {
            statements += triggers.map { "DROP TRIGGER IF EXISTS \($0)" }
            statements.append("DROP TABLE IF EXISTS \(fts)")
        }
        guard !fields.isEmpty else { return statements }
        let columns = fields.map(SQLName.column).joined(separator: ", ")
        let newValues = fields.map { "NEW.\(SQLName.column($0))" }.joined(separator: ", ")
        let oldValues = fields.map { "OLD.\(SQLName.column($0))" }.joined(separator: ", ")
        let deleteOld = "INSERT INTO \(fts)(\(fts), rowid, \(columns)) VALUES ('delete', OLD._rowid, \(oldValues));"
        let insertNew = "INSERT INTO \(fts)(rowid, \(columns)) VALUES (NEW._rowid, \(newValues));"
        statements += [
            "CREATE VIRTUAL TABLE \(fts) USING fts5(\(columns), content=\(table), content_rowid=_rowid)",
            "CREATE TRIGGER \(triggers[0]) AFTER INSERT ON \(table) BEGIN \(insertNew) END",
            "CREATE TRIGGER \(triggers[1]) AFTER DELETE ON \(table) BEGIN \(deleteOld) END",
            "CREATE TRIGGER \(triggers[2]) AFTER UPDATE ON \(table) BEGIN \(deleteOld) \(insertNew) END",
            "INSERT INTO \(fts)(\(fts)) VALUES ('rebuild')",
        ]
        return statements
    }
}

extension FieldType {
    /// The declared column type, which gives SQLite's type affinity.
    var sqlAffinity: String {
        switch self {
        case .string, .reference, .asset, .location, .list: "TEXT"
        case .int64, .timestamp: "INTEGER"
        case .double: "REAL"
        case .number: "NUMERIC"
        case .bytes: "BLOB"
        }
    }
}
