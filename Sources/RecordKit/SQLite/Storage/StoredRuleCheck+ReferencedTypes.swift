import GRDB

extension StoredRuleCheck {
    /// Throws `schemaViolation` when a stored record of `type` holds, in `field` (a REFERENCE or
    /// LIST<REFERENCE> that now declares it references `target`), a reference to a stored record
    /// of another type — the same rule a write is held to (``RecordTransaction/checkTarget(of:field:in:from:)``),
    /// so a target is never declared over references it would refuse. A reference to a record
    /// that does not exist is let be, as a write lets it be. `tables` are the record types that
    /// have a table before the change.
    static func checkReferencedType(
        _ target: String, of field: FieldDefinition, in type: RecordType, among tables: [RecordType], in db: Database
    ) throws {
        let element = "json_extract(e.value, '$.recordName')"
        let (from, referenced) =
            field.type == .reference
            ? ("\(SQLName.table(type.name)) r", "r.\(SQLName.column(field.name))")
            : ("\(SQLName.table(type.name)) r, json_each(r.\(SQLName.column(field.name))) e", element)
        var offenders: [(referrer: String, target: String, type: String)] = []
        for other in tables where other.name != target {
            let sql = """
                SELECT DISTINCT r.\(SQLName.recordName), \(referenced) FROM \(from)
                JOIN \(SQLName.table(other.name)) t ON t.\(SQLName.recordName) = \(referenced)
                ORDER BY 1, 2 LIMIT \(shownViolations + 1)
                """
            for row in try Row.fetchAll(db, sql: sql) {
                offenders.append((row[0], row[1], other.name))
            }
        }
        guard !offenders.isEmpty else { return }
        offenders.sort { ($0.referrer, $0.target) < ($1.referrer, $1.target) }
        let shown = offenders.map { "'\($0.referrer)' references '\($0.target)', a \($0.type) record" }
        throw RecordError(
            .schemaViolation,
            "cannot declare \(type.name).\(field.name) references \(target): \(listed(shown, separator: "; ")); \(shown.count == 1 ? "point that reference at a \(target) record or remove it" : "point those references at \(target) records or remove them"), then try again",
            recordType: type.name, field: field.name, recordName: offenders[0].referrer
        )
    }
}
