/// Where records hold assets, as SQL: the ASSET and LIST<ASSET> columns of a record type, whose
/// values are `{"sha256":…,"size":…}` (``ValueEncoding``) or JSON arrays of those.
enum AssetColumns {
    /// A condition true for a row of `layout`'s table that holds, in any of its asset fields, the
    /// asset whose SHA-256 is the SQL expression `sha256`; `nil` when the type has no asset field.
    static func holding(_ sha256: String, in layout: TableLayout) -> String? {
        let conditions = layout.assetSlots.map { slot in
            let column = "\(layout.table).\(SQLName.column(slot.field.name))"
            return slot.field.type == .asset
                ? "\(column) ->> '$.sha256' = \(sha256)"
                : "EXISTS (SELECT 1 FROM json_each(\(column)) AS _element WHERE _element.value ->> '$.sha256' = \(sha256))"
        }
        return conditions.isEmpty ? nil : conditions.joined(separator: " OR ")
    }

    /// A statement selecting the SHA-256 of each asset held by the rows of `layout`'s table
    /// that match `condition` (a `WHERE` condition on that table alone), once per field value
    /// or list element holding it; `nil` when the type has no asset field.
    static func held(by layout: TableLayout, where condition: String) -> String? {
        guard !layout.assetSlots.isEmpty else { return nil }
        let columns = layout.assetSlots.map { SQLName.column($0.field.name) }
        // The rows are chosen first, so `condition` sees the table's columns alone (no
        // `json_each` column such as `value` can shadow a field of that name).
        let selections = layout.assetSlots.map { slot in
            let column = "_rows.\(SQLName.column(slot.field.name))"
            return slot.field.type == .asset
                ? "SELECT \(column) ->> '$.sha256' FROM _rows WHERE \(column) IS NOT NULL"
                : "SELECT _element.value ->> '$.sha256' FROM _rows, json_each(\(column)) AS _element"
        }
        return "WITH _rows AS (SELECT \(columns.joined(separator: ", ")) FROM \(layout.table) WHERE \(condition)) "
            + selections.joined(separator: " UNION ALL ")
    }
}
