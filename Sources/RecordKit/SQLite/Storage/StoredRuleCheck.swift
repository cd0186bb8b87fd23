import GRDB

/// Before a schema change adds a rule (`NOT EMPTY`, `UNIQUE (…)`, the record type a REFERENCE
/// field points at) to a record type that already stores records, checks that those records
/// keep it, and refuses the change with `schemaViolation` naming the records that do not (up to
/// ``shownViolations``): a rule is never added over data that breaks it, and SQLite's bare
/// constraint failure is never what a user sees.
enum StoredRuleCheck {
    /// How many offending records or groups an error lists.
    static let shownViolations = 5

    static func check(from old: Schema, to new: Schema, in db: Database) throws {
        for type in new.recordTypes where !type.isCloudKitSystemType {
            // A new record type's table is empty.
            guard let previous = old.recordType(named: type.name) else { continue }
            for field in type.requiredFields where previous.field(named: field.name)?.isRequired != true {
                try checkRequired(field, of: type, isNewField: previous.field(named: field.name) == nil, in: db)
            }
            for constraint in type.uniqueConstraints where previous.uniqueConstraint(matching: constraint) == nil {
                // A field added by the same change is absent everywhere, so nothing can collide.
                guard constraint.fields.allSatisfy({ previous.field(named: $0) != nil }) else { continue }
                try checkUnique(constraint, of: type, in: db)
            }
            for field in type.userFields {
                // A field added by the same change holds no references yet.
                guard let target = field.referencedType, let before = previous.field(named: field.name), before.referencedType != target else { continue }
                try checkReferencedType(target, of: field, in: type, among: old.recordTypes.filter { !$0.isCloudKitSystemType }, in: db)
            }
        }
    }

    private static func checkRequired(_ field: FieldDefinition, of type: RecordType, isNewField: Bool, in db: Database) throws {
        let column = SQLName.column(field.name)
        let empty =
            switch field.type {
            case _ where isNewField: "1"
            case .string, .bytes: "\(column) IS NULL OR length(\(column)) = 0"
            case .list: "\(column) IS NULL OR \(column) = '[]'"
            default: "\(column) IS NULL"
            }
        let sql = "SELECT \(SQLName.recordName) FROM \(SQLName.table(type.name)) WHERE \(empty) ORDER BY \(SQLName.recordName) LIMIT \(shownViolations + 1)"
        let names = try String.fetchAll(db, sql: sql)
        guard !names.isEmpty else { return }
        throw RecordError(
            .schemaViolation,
            "cannot declare \(type.name).\(field.name) NOT EMPTY: \(listed(names.map { "'\($0)'" }, separator: ", ")) \(names.count == 1 ? "has" : "have") no value for it; give them one or delete them, then try again",
            recordType: type.name, field: field.name, recordName: names[0]
        )
    }

    private static func checkUnique(_ constraint: UniqueConstraint, of type: RecordType, in db: Database) throws {
        let fields = try constraint.fields.map { name throws(RecordError) in
            guard let field = type.field(named: name) else { throw RecordError(.schemaViolation, "\(type.name) has no field '\(name)'") }
            return field
        }
        let columns = fields.map { SQLName.column($0.name) }.joined(separator: ", ")
        let present = fields.map { "\(SQLName.column($0.name)) IS NOT NULL" }.joined(separator: " AND ")
        let sql = """
            SELECT \(columns), group_concat(\(SQLName.recordName), ', ') FROM \(SQLName.table(type.name))
            WHERE \(present) GROUP BY \(columns) HAVING count(*) > 1 LIMIT \(shownViolations + 1)
            """
        let groups = try Row.fetchAll(db, sql: sql).map { row in
            let values = fields.enumerated().map { index, field in
                "\(field.name) '\(ValueEncoding.decode(row[index], action: nil, type: field.type)?.description ?? "")'"
            }
            let names: String = row[fields.count]
            return "\(values.joined(separator: " and ")) (\(names))"
        }
        guard !groups.isEmpty else { return }
        throw RecordError(
            .schemaViolation,
            "cannot add \(constraint) to \(type.name): records already share values: \(listed(groups, separator: "; ")); rename or delete them, then try again",
            recordType: type.name, field: constraint.fields.last
        )
    }

    /// The first ``shownViolations`` of `items`, joined, with "and more" when there are more.
    static func listed(_ items: [String], separator: String) -> String {
        items.prefix(shownViolations).joined(separator: separator) + (items.count > shownViolations ? "\(separator)and more" : "")
    }
}
