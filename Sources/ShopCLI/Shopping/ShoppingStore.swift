import RecordKit
import RecordQL

/// Shopping lists and their items, addressed by name, over RecordKit.
///
/// A list is a `Lists` record with a unique `name`; an item is an `Items` record whose `name` is
/// unique within its list and whose `list` is a DELETE_SELF reference to it, so deleting a list
/// deletes its items. recordNames are generated UUIDs. Names are found with queries on the
/// QUERYABLE `name` fields, and each operation runs in one transaction: a failed one changes
/// nothing.
struct ShoppingStore {
    static let listType = "Lists"
    static let itemType = "Items"
    let database: RecordDatabase

    /// `database.read`, typed: the bodies here throw only RecordKit's errors.
    func read<T>(_ body: (RecordTransaction) throws -> T) throws(RecordError) -> T {
        do {
            return try database.read(body)
        } catch {
            throw RecordError(wrapping: error)
        }
    }

    /// `database.write`, typed.
    func write<T>(_ body: (RecordTransaction) throws -> T) throws(RecordError) -> T {
        do {
            return try database.write(body)
        } catch {
            throw RecordError(wrapping: error)
        }
    }

    /// A list and how many items it has.
    struct ListSummary: Equatable {
        var name: String
        var itemCount: Int
    }

    /// Every list, by name, with its item count: one statement, each count an aggregate over
    /// the list's items (`Lists { name ItemsAggregate { count } }`) read from the
    /// `(list, …)` index.
    func lists() throws(RecordError) -> [ListSummary] {
        let count = Aggregation([Aggregation.Member("count", .count)])
        let projection = Projection([
            Projection.Member("name", .field("name")),
            Projection.Member("items", .aggregate(recordType: Self.itemType, field: "list", predicate: .all, count)),
        ])
        let json = try read { transaction in
            try transaction.json(Query(Self.listType, sort: [SortDescriptor("name")]), projection: projection)
        }
        guard case .array(let lists)? = JSONValue(parsing: json) else {
            throw RecordError(.internalError, "the lists could not be read back from their JSON")
        }
        return lists.map { list in
            let name: String = if case .string(let name)? = list["name"] { name } else { "" }
            let items: Int = if case .number(let text)? = list["items"]?["count"] { Int(text) ?? 0 } else { 0 }
            return ListSummary(name: name, itemCount: items)
        }
    }

    /// Creates the list `name`; `serverRecordChanged` if one has that name already.
    func addList(_ name: String) throws(RecordError) {
        try Self.checkName(name, of: "list")
        try write { transaction in
            try transaction.requireNoList(named: name)
            _ = try transaction.apply(.create(Record(Self.listType, fields: ["name": .string(name)])))
        }
    }

    /// Renames list `name` to `newName`.
    func renameList(_ name: String, to newName: String) throws(RecordError) {
        try Self.checkName(newName, of: "list")
        try write { transaction in
            let list = try transaction.list(named: name)
            if newName != name { try transaction.requireNoList(named: newName) }
            _ = try transaction.update(recordType: Self.listType, recordName: list.recordName, fields: ["name": .string(newName)])
        }
    }

    /// Deletes list `name` and, by cascade, its items; returns how many items went with it.
    func deleteList(_ name: String) throws(RecordError) -> Int {
        try write { transaction in
            let list = try transaction.list(named: name)
            return try transaction.delete(recordName: list.recordName).count - 1
        }
    }

    /// The items of list `name` matching `predicate`, in `sort` order (by name when empty).
    func items(in name: String, matching predicate: Predicate = .all, sort: [SortDescriptor] = []) throws(RecordError) -> [Record] {
        try read { transaction in
            try transaction.records(matching: try transaction.itemsQuery(list: name, matching: predicate, sort: sort))
        }
    }

    /// SQLite's plan for ``items(in:matching:sort:)``.
    func explainItems(in name: String, matching predicate: Predicate = .all, sort: [SortDescriptor] = []) throws(RecordError) -> QueryExplanation {
        try read { transaction in
            try transaction.explain(try transaction.itemsQuery(list: name, matching: predicate, sort: sort))
        }
    }

    /// Adds item `name` to list `listName` with `assignments`.
    func addItem(_ name: String, to listName: String, assignments: [FieldAssignment]) throws(RecordError) {
        try Self.checkName(name, of: "item")
        try write { transaction in
            let list = try transaction.list(named: listName)
            let changes = try transaction.itemChanges(assignments)
            if let field = changes.name != nil ? "name" : changes.list != nil ? "list" : nil {
                throw RecordError(
                    .invalidArguments,
                    "item add takes the list and the item's name as its arguments, not \(field)=; to rename or move an item later: item set LIST NAME \(field)=NEW",
                    recordType: Self.itemType, field: field
                )
            }
            try transaction.requireNoItem(named: name, in: list)
            var item = Record(Self.itemType, fields: ["name": .string(name), "list": .reference(Reference(list.recordName, action: .deleteSelf))])
            for case (let field, let value?) in changes.fields {
                item.fields[field] = value
            }
            _ = try transaction.apply(.create(item))
        }
    }

    /// Changes fields of item `name` of list `listName` (`list=OTHER` moves it to list OTHER).
    func setItem(_ name: String, in listName: String, assignments: [FieldAssignment]) throws(RecordError) {
        guard !assignments.isEmpty else {
            throw RecordError(.invalidArguments, "item set needs at least one FIELD=VALUE (for example number=2)")
        }
        try write { transaction in
            let list = try transaction.list(named: listName)
            let item = try transaction.item(named: name, in: list)
            let changes = try transaction.itemChanges(assignments)
            let newName = changes.name ?? name
            let newList = changes.list ?? list
            if newName != name || newList.recordName != list.recordName {
                try transaction.requireNoItem(named: newName, in: newList)
            }
            _ = try transaction.update(recordType: Self.itemType, recordName: item.recordName, fields: changes.fields)
        }
    }

    /// Deletes item `name` of list `listName`.
    func deleteItem(_ name: String, in listName: String) throws(RecordError) {
        try write { transaction in
            let item = try transaction.item(named: name, in: try transaction.list(named: listName))
            _ = try transaction.delete(recordName: item.recordName)
        }
    }

    /// The names of every list, for completion.
    func listNames() throws(RecordError) -> [String] {
        try database.records(matching: Query(Self.listType, sort: [SortDescriptor("name")])).map(\.name)
    }

    /// The names of the items of list `name`, for completion.
    func itemNames(in name: String) throws(RecordError) -> [String] {
        try items(in: name).map(\.name)
    }

    private static func checkName(_ name: String, of kind: String) throws(RecordError) {
        if name.trimmingWhitespace.isEmpty {
            throw RecordError(.invalidArguments, "a \(kind) name cannot be empty")
        }
    }
}

extension Record {
    /// The `name` field, or the recordName for a record without one.
    var name: String { self["name"]?.stringValue ?? recordName }
}
