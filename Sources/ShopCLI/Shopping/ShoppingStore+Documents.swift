import RecordKit
import RecordQL

/// Items as the documents `items` and `item show` print: every field of the schema, references
/// with the names of the records they point at.
extension ShoppingStore {
    /// The items of list `name` matching `predicate`, in `sort` order (by name when empty), with
    /// the fields of `Items` and the names of the records they reference.
    func itemListing(
        in name: String, matching predicate: Predicate = .all, sort: [SortDescriptor] = []
    ) async throws(RecordError) -> RecordListing {
        let items = try await items(in: name, matching: predicate, sort: sort)
        let type = try await backend.schema().requireRecordType(Self.itemType)
        return RecordListing(records: items, fields: type.userFields, names: try await names(referencedBy: items))
    }

    /// Item `name` of list `listName` as a JSON object, system fields first.
    func itemDocument(named name: String, in listName: String) async throws(RecordError) -> JSONValue {
        let item = try await item(named: name, inList: listName).item
        let type = try await backend.schema().requireRecordType(Self.itemType)
        let names = try await names(referencedBy: [item])
        return JSONValue(item, fields: type.userFields, names: { names[$0] })
    }

    /// The `name` of each record `records` reference (directly or in lists) that exists and has one.
    private func names(referencedBy records: [Record]) async throws(RecordError) -> [String: String] {
        func references(in value: Value) -> [String] {
            switch value {
            case .reference(let reference): [reference.recordName]
            case .list(let values): values.flatMap(references)
            default: []
            }
        }
        let recordNames = Set(records.flatMap { $0.fields.values.flatMap(references) })
        guard !recordNames.isEmpty else { return [:] }
        var names: [String: String] = [:]
        for record in try await backend.fetch(recordNames: recordNames.sorted()) {
            if let name = record["name"]?.stringValue { names[record.recordName] = name }
        }
        return names
    }
}
