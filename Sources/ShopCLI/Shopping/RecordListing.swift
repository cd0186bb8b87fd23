import RecordKit
import RecordQL

/// Records of one type as `items` shows them: a table of their fields, or with `--json` an
/// array of documents that also carry their system fields. Each form is built only when shown.
struct RecordListing {
    let records: [Record]
    /// The record type's user fields, in schema order: the table's columns.
    let fields: [FieldDefinition]
    /// The `name` of each record a reference among `records` points at.
    let names: [String: String]

    /// Each record as a JSON object (``JSONValue/init(_:fields:names:systemFields:)``), with its
    /// system fields first when `systemFields` is true.
    func documents(systemFields: Bool) -> [JSONValue] {
        records.map { JSONValue($0, fields: fields, names: { names[$0] }, systemFields: systemFields) }
    }
}
