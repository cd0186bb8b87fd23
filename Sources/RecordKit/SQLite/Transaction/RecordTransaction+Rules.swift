import GRDB

/// The rules a record type declares about its values, kept on every write: `NOT EMPTY` fields
/// are checked before the row is written, `UNIQUE (…)` lines by their SQLite unique index, whose
/// failure is turned here into an error naming the record that already holds the values.
/// Either way the write's statement changes nothing and the caller's transaction rolls back.
extension RecordTransaction {
    /// Throws `schemaViolation` when the whole record `fields` lacks a value for a `NOT EMPTY`
    /// field of `layout`'s type (values given are checked by ``checkNotEmpty(_:of:in:)``).
    func checkRequiredFieldsPresent(_ fields: [String: Value], layout: TableLayout, recordName: String) throws(RecordError) {
        for slot in layout.slots where slot.field.isRequired && fields[slot.field.name] == nil {
            throw Self.emptyValue(slot.field, in: layout.recordType.name, recordName: recordName, removed: false)
        }
    }

    /// Throws `schemaViolation` when `value` (nil: the value is being removed) is empty and
    /// `field` is `NOT EMPTY`.
    func checkNotEmpty(_ value: Value?, of field: FieldDefinition, in recordType: String, recordName: String) throws(RecordError) {
        guard field.isRequired else { return }
        guard let value else { throw Self.emptyValue(field, in: recordType, recordName: recordName, removed: true) }
        if value.isEmptyValue { throw Self.emptyValue(field, in: recordType, recordName: recordName, removed: false) }
    }

    private static func emptyValue(_ field: FieldDefinition, in recordType: String, recordName: String, removed: Bool) -> RecordError {
        let what = removed ? "its value cannot be removed" : "every record needs a value that is not empty"
        return RecordError(
            .schemaViolation,
            "\(recordType).\(field.name) is NOT EMPTY: \(what) (record '\(recordName)')",
            recordType: recordType, field: field.name, recordName: recordName
        )
    }

    /// Runs `write`, a statement writing record `recordName`; when it fails on the unique index
    /// of a `UNIQUE (…)` line, throws ``uniqueViolation(of:layout:value:)`` instead.
    func keepingUniqueness<T>(
        of recordName: String, layout: TableLayout, value: (TableLayout.Slot) throws -> DatabaseValue, _ write: () throws -> T
    ) throws -> T {
        do {
            return try write()
        } catch let error as DatabaseError where error.extendedResultCode == .SQLITE_CONSTRAINT_UNIQUE {
            if let violation = try uniqueViolation(of: recordName, layout: layout, value: value) { throw violation }
            throw error
        }
    }

    /// After a write of record `recordName` failed on a unique index: the `schemaViolation`
    /// naming the `UNIQUE (…)` line it breaks and the record already holding the values, or
    /// `nil` when no declared constraint is broken (the failure was the recordName's own
    /// uniqueness). `value` gives the column value the failed write meant to store for a slot.
    private func uniqueViolation(
        of recordName: String, layout: TableLayout, value: (TableLayout.Slot) throws -> DatabaseValue
    ) throws -> RecordError? {
        let typeName = layout.recordType.name
        for constraint in layout.recordType.uniqueConstraints {
            let slots = try constraint.fields.map { name throws(RecordError) in try layout.slot(name) }
            let values = try slots.map(value)
            guard !values.contains(where: \.isNull) else { continue }
            let condition = slots.map { "\(SQLName.column($0.field.name)) = ?" }.joined(separator: " AND ")
            let sql = "SELECT \(SQLName.recordName) FROM \(layout.table) WHERE \(condition) AND \(SQLName.recordName) <> ? LIMIT 1"
            guard let holder = try String.fetchOne(db, sql: sql, arguments: StatementArguments(values + [recordName.databaseValue])) else {
                continue
            }
            let shown = zip(slots, values).map { slot, stored in
                "\(slot.field.name) '\(ValueEncoding.decode(stored, action: nil, type: slot.field.type)?.description ?? "")'"
            }.joined(separator: " and ")
            return RecordError(
                .schemaViolation,
                "\(typeName) record '\(holder)' already has \(shown), and \(typeName) declares \(constraint); choose other values or change that record",
                recordType: typeName, field: constraint.fields.last, recordName: holder
            )
        }
        return nil
    }

    /// The stored value of `slot`'s column in record `recordName` of `layout`'s type.
    func storedValue(of slot: TableLayout.Slot, recordName: String, layout: TableLayout) throws -> DatabaseValue {
        let sql = "SELECT \(SQLName.column(slot.field.name)) FROM \(layout.table) WHERE \(SQLName.recordName) = ?"
        return try DatabaseValue.fetchOne(db, sql: sql, arguments: [recordName]) ?? .null
    }
}

extension Value {
    /// Whether this is an empty STRING, BYTES or LIST (what `NOT EMPTY` refuses besides absence).
    var isEmptyValue: Bool {
        switch self {
        case .string(let text): text.isEmpty
        case .bytes(let data): data.isEmpty
        case .list(let values): values.isEmpty
        default: false
        }
    }
}
