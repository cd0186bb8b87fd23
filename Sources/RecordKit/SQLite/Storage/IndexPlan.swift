/// The SQLite indexes a record type gets from its index flags. Pure, so it is tested without a
/// database and used both to create indexes and to explain them.
///
/// - a QUERYABLE or SORTABLE scalar field `f` gets `(f, _recordName)`: equality and range
///   lookups, and ordered scans with the recordName tie-break built in;
/// - every QUERYABLE REFERENCE `r` and SORTABLE field `s` get `(r, s, _recordName)`: CloudKit's
///   canonical query, children of one parent sorted by a field, is one index range scan with no
///   sort step. Such a composite also serves `r == X` lookups (and cascade deletes), so `r`
///   gets no `(r, _recordName)` of its own then: every index costs each insert and delete;
/// - the system fields `___createTime` / `___modTime` get `(_createdAt|_modifiedAt, _recordName)`
///   when declared QUERYABLE or SORTABLE; `___recordID` is always unique-indexed.
struct IndexPlan: Sendable, Hashable {
    struct Index: Sendable, Hashable {
        var name: String
        var columns: [String]
    }

    var indexes: [Index]

    init(_ recordType: RecordType) {
        var indexes: [Index] = []
        let indexable = recordType.fields.filter { $0.isIndexableScalar }
        let parents = indexable.filter { $0.systemField == nil && $0.type == .reference && $0.flags.contains(.queryable) }
        let sortKeys = indexable.filter { $0.flags.contains(.sortable) }
        let coveredByComposite = Set(parents.filter { parent in sortKeys.contains { $0.name != parent.name } }.map(\.name))
        for field in indexable where !field.flags.isDisjoint(with: [.queryable, .sortable]) && !coveredByComposite.contains(field.name) {
            if let system = field.systemField {
                guard system != .recordID, let column = system.column else { continue }
                indexes.append(Index(name: SQLName.object("idx", recordType.name, [column]), columns: [column, SQLName.recordName]))
            } else {
                indexes.append(
                    Index(
                        name: SQLName.object("idx", recordType.name, [field.name]),
                        columns: [SQLName.column(field.name), SQLName.recordName]
                    ))
            }
        }
        for parent in parents {
            for key in sortKeys where key.name != parent.name {
                let keyColumn = key.systemField?.column ?? SQLName.column(key.name)
                indexes.append(
                    Index(
                        name: SQLName.object("idx", recordType.name, [parent.name, key.name]),
                        columns: [SQLName.column(parent.name), keyColumn, SQLName.recordName]
                    ))
            }
        }
        self.indexes = indexes
    }

    /// `CREATE INDEX IF NOT EXISTS` statements for every index.
    func createStatements(on recordType: String) -> [String] {
        indexes.map { "CREATE INDEX IF NOT EXISTS \($0.name) ON \(SQLName.table(recordType))(\($0.columns.joined(separator: ", ")))" }
    }
}

extension FieldDefinition {
    /// Whether a B-tree index on the stored column is useful: ordered single values, not
    /// lists, locations, assets or encrypted values.
    var isIndexableScalar: Bool {
        guard !isEncrypted else { return false }
        if let system = systemField { return system.column != nil }
        return type.isOrdered
    }
}
