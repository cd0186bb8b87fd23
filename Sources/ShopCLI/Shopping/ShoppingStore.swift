import RecordKit
import RecordQL

/// Shopping lists and their items, addressed by name, over a ``ShopBackend``.
///
/// A list is a `Lists` record with a unique `name`; an item is an `Items` record whose `name` is
/// unique within its list and whose `list` is a DELETE_SELF reference to it, so deleting a list
/// deletes its items. recordNames are generated UUIDs. Names are found with queries on the
/// QUERYABLE `name` fields; each change is then one atomic write (``ShopBackend/apply(_:)``),
/// and the schema's `UNIQUE` rules refuse a duplicate that another client added in between.
struct ShoppingStore {
    static let listType = "Lists"
    static let itemType = "Items"
    /// The field of an item referencing its list.
    static let listField = "list"
    let backend: any ShopBackend

    /// A list found by name and, when asked for, its item found by name (``ShopBackend/namedRecords(list:item:forAdding:)``).
    struct NamedRecords {
        var list: Record?
        var item: Record?
    }

    /// A list and how many items it has.
    struct ListSummary: Equatable {
        var name: String
        var itemCount: Int
    }

    /// Every list, by name, with its item count.
    func lists() async throws(RecordError) -> [ListSummary] {
        try await backend.listSummaries()
    }

    /// Creates the list `name`; `schemaViolation` if one has that name already.
    func addList(_ name: String) async throws(RecordError) {
        try Self.checkName(name, of: "list")
        try await backend.asOneUnit { () async throws(RecordError) in
            try await requireNoList(named: name)
            _ = try await backend.apply(.create(Record(Self.listType, fields: ["name": .string(name)])))
        }
    }

    /// Renames list `name` to `newName`.
    func renameList(_ name: String, to newName: String) async throws(RecordError) {
        try Self.checkName(newName, of: "list")
        try await backend.asOneUnit { () async throws(RecordError) in
            let list = try await list(named: name)
            if newName != name { try await requireNoList(named: newName) }
            _ = try await backend.apply(
                .update(recordType: Self.listType, recordName: list.recordName, fields: ["name": .string(newName)], ifChangeTag: list.changeTag))
        }
    }

    /// Deletes list `name` and, by cascade, its items; returns how many items went with it.
    func deleteList(_ name: String) async throws(RecordError) -> Int {
        try await backend.asOneUnit { () async throws(RecordError) in
            let list = try await list(named: name)
            return try await backend.apply(.delete(recordName: list.recordName)).deletedRecordNames.count - 1
        }
    }

    /// The items of list `name` matching `predicate`, in `sort` order (by name when empty).
    func items(in name: String, matching predicate: Predicate = .all, sort: [SortDescriptor] = []) async throws(RecordError) -> [Record] {
        try await backend.records(matching: try await itemsQuery(list: name, matching: predicate, sort: sort))
    }

    /// Adds item `name` to list `listName` with `assignments`.
    func addItem(_ name: String, to listName: String, assignments: [FieldAssignment]) async throws(RecordError) {
        try Self.checkName(name, of: "item")
        try await backend.asOneUnit { () async throws(RecordError) in
            let (list, existing) = try await list(named: listName, toAddItem: name)
            let changes = try await itemChanges(assignments)
            if let field = changes.name != nil ? "name" : changes.list != nil ? "list" : nil {
                throw RecordError(
                    .invalidArguments,
                    "item add takes the list and the item's name as its arguments, not \(field)=; to rename or move an item later: item set LIST NAME \(field)=NEW",
                    recordType: Self.itemType, field: field
                )
            }
            if existing != nil { throw Self.itemTaken(name, in: list) }
            var item = Record(Self.itemType, fields: ["name": .string(name), "list": .reference(Reference(list.recordName, action: .deleteSelf))])
            for case (let field, let value?) in changes.fields {
                item.fields[field] = value
            }
            _ = try await backend.apply(.create(item))
        }
    }

    /// Changes fields of item `name` of list `listName` (`list=OTHER` moves it to list OTHER).
    func setItem(_ name: String, in listName: String, assignments: [FieldAssignment]) async throws(RecordError) {
        guard !assignments.isEmpty else {
            throw RecordError(.invalidArguments, "item set needs at least one FIELD=VALUE (for example number=2)")
        }
        try await backend.asOneUnit { () async throws(RecordError) in
            let (list, item) = try await item(named: name, inList: listName)
            let changes = try await itemChanges(assignments)
            let newName = changes.name ?? name
            let newList = changes.list ?? list
            if newName != name || newList.recordName != list.recordName {
                try await requireNoItem(named: newName, in: newList)
            }
            _ = try await backend.apply(.update(recordType: Self.itemType, recordName: item.recordName, fields: changes.fields, ifChangeTag: item.changeTag))
        }
    }

    /// Deletes item `name` of list `listName`.
    func deleteItem(_ name: String, in listName: String) async throws(RecordError) {
        try await backend.asOneUnit { () async throws(RecordError) in
            let item = try await item(named: name, inList: listName).item
            _ = try await backend.apply(.delete(recordName: item.recordName))
        }
    }

    /// The names of every list, for completion.
    func listNames() async throws(RecordError) -> [String] {
        try await backend.records(matching: Query(Self.listType, sort: [SortDescriptor("name")])).map(\.name)
    }

    /// The names of the items of list `name`, for completion.
    func itemNames(in name: String) async throws(RecordError) -> [String] {
        try await items(in: name).map(\.name)
    }

    private static func checkName(_ name: String, of kind: String) throws(RecordError) {
        if name.trimmingWhitespace.isEmpty {
            throw RecordError(.invalidArguments, "\(kind == "item" ? "an" : "a") \(kind) name cannot be empty or only spaces")
        }
    }
}

extension Record {
    /// The `name` field, or the recordName for a record without one.
    var name: String { self["name"]?.stringValue ?? recordName }
}
