import RecordKit
import RecordQL

/// Items as the documents `items` and `item show` print: every field of the schema, references
/// with the names of the records they point at, each read in one transaction.
extension ShoppingStore {
    /// The items of list `name` matching `predicate`, in `sort` order (by name when empty), as
    /// JSON objects (``JSONValue/init(_:of:names:)``), and the fields of `Items` in schema order.
    func itemDocuments(
        in name: String, matching predicate: Predicate = .all, sort: [SortDescriptor] = []
    ) throws(RecordError) -> (documents: [JSONValue], fields: [FieldDefinition]) {
        try read { transaction in
            let items = try transaction.records(matching: try transaction.itemsQuery(list: name, matching: predicate, sort: sort))
            let type = try transaction.schema.requireRecordType(Self.itemType)
            let names = try Self.names(referencedBy: items, in: transaction)
            return (items.map { JSONValue($0, of: type, names: { names[$0] }) }, type.userFields)
        }
    }

    /// Item `name` of list `listName` as a JSON object, system fields first.
    func itemDocument(named name: String, in listName: String) throws(RecordError) -> JSONValue {
        try read { transaction in
            let item = try transaction.item(named: name, in: try transaction.list(named: listName))
            let type = try transaction.schema.requireRecordType(Self.itemType)
            let names = try Self.names(referencedBy: [item], in: transaction)
            return JSONValue(item, of: type, names: { names[$0] })
        }
    }

    /// The `name` of each record `records` reference (directly or in lists) that exists and has one.
    private static func names(referencedBy records: [Record], in transaction: RecordTransaction) throws -> [String: String] {
        func references(in value: Value) -> [String] {
            switch value {
            case .reference(let reference): [reference.recordName]
            case .list(let values): values.flatMap(references)
            default: []
            }
        }
        let recordNames = Set(records.flatMap { $0.fields.values.flatMap(references) })
        var names: [String: String] = [:]
        for record in try transaction.fetch(recordNames: Array(recordNames)) {
            if let name = record["name"]?.stringValue { names[record.recordName] = name }
        }
        return names
    }
}
