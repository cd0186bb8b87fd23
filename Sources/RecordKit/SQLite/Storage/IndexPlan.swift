/// The SQLite indexes a record type gets from its index flags. Pure, so it is tested without a
/// database and used both to create indexes and to explain them.
///
/// - a QUERYABLE or SORTABLE scalar field `f` gets `(f, _recordName)`: equality and range
///   lookups, and ordered scans with the recordName tie-break built in;
/// - every QUERYABLE REFERENCE `r` and SORTABLE field `s` get `(r, s, _recordName, …)`: CloudKit's
///   canonical query, children of one parent sorted by a field, is one index range scan with no
///   sort step. Such a composite also serves `r == X` lookups (and cascade deletes), so `r`
///   gets no `(r, _recordName)` of its own then: every index costs each insert and delete;
/// - the composite *covers* the record when every field is compact (no LIST or BYTES, whose
///   values have no bound): after its key it carries the record's other columns, so the page of
///   children is read from the index alone, in order, instead of one table search per child
///   (SQLite has no `INCLUDE`; trailing key columns are how it carries them). A field added
///   later changes the composite's columns, and ``statements(replacing:on:)`` builds it again;
/// - the system fields `___createTime` / `___modTime` get `(_createdAt|_modifiedAt, _recordName)`
///   when declared QUERYABLE or SORTABLE; `___recordID` is always unique-indexed.
struct IndexPlan: Sendable, Hashable {
    struct Index: Sendable, Hashable {
        var name: String
        var columns: [String]

        /// `CREATE INDEX IF NOT EXISTS` of this index on `recordType`'s table.
        func createStatement(on recordType: String) -> String {
            "CREATE INDEX IF NOT EXISTS \(name) ON \(SQLName.table(recordType))(\(columns.joined(separator: ", ")))"
        }
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
        let carriesRecord = recordType.userFields.allSatisfy { $0.type.isCompact }
        for parent in parents {
            for key in sortKeys where key.name != parent.name {
                let keyColumns = [SQLName.column(parent.name), key.systemField?.column ?? SQLName.column(key.name), SQLName.recordName]
                // Every index entry ends in the rowid already.
                let carried =
                    carriesRecord ? SQLName.storedColumns(of: recordType).filter { $0 != SQLName.rowID && !keyColumns.contains($0) } : []
                indexes.append(
                    Index(name: SQLName.object("idx", recordType.name, [parent.name, key.name]), columns: keyColumns + carried))
            }
        }
        self.indexes = indexes
    }

    /// The statements that take `old`'s indexes of `recordType` to these: a new index is
    /// created, and one whose columns changed (a composite carrying a field added since) is
    /// dropped and built again. Index flags are only ever added, so no index goes away.
    func statements(replacing old: IndexPlan?, on recordType: String) -> [String] {
        let oldColumns = Dictionary((old?.indexes ?? []).map { ($0.name, $0.columns) }, uniquingKeysWith: { first, _ in first })
        return indexes.flatMap { index -> [String] in
            switch oldColumns[index.name] {
            case index.columns: []
            case nil: [index.createStatement(on: recordType)]
            default: ["DROP INDEX IF EXISTS \(index.name)", index.createStatement(on: recordType)]
            }
        }
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

extension FieldType {
    /// Whether an index may carry values of the type: everything but LIST and BYTES, which hold
    /// any number of elements or bytes.
    var isCompact: Bool {
        switch self {
        case .list, .bytes: false
        case .string, .reference, .asset, .location, .int64, .timestamp, .double, .number: true
        }
    }
}
