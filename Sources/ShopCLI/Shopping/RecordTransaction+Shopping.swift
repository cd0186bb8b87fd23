import RecordKit

/// Finding lists and items by name inside one transaction, so a check and the write that
/// depends on it see the same data.
extension RecordTransaction {
    /// The list named `name`, or `unknownItem`.
    func list(named name: String) throws -> Record {
        guard let list = try records(matching: Self.named(name, type: ShoppingStore.listType)).first else {
            throw RecordError(
                .unknownItem,
                "there is no list named '\(name)'; see the lists with: lists",
                recordType: ShoppingStore.listType
            )
        }
        return list
    }

    /// Throws `invalidArguments` when a list is named `name` already.
    func requireNoList(named name: String) throws {
        guard try records(matching: Self.named(name, type: ShoppingStore.listType)).isEmpty else {
            throw RecordError(
                .invalidArguments,
                "there is already a list named '\(name)'; list names are unique, choose another one",
                recordType: ShoppingStore.listType
            )
        }
    }

    /// The item named `name` in `list`, or `unknownItem`.
    func item(named name: String, in list: Record) throws -> Record {
        guard let item = try records(matching: Self.item(named: name, in: list)).first else {
            throw RecordError(
                .unknownItem,
                "list '\(list.name)' has no item named '\(name)'; see its items with: items \(LineTokenizer.quote(list.name))",
                recordType: ShoppingStore.itemType
            )
        }
        return item
    }

    /// Throws `invalidArguments` when `list` has an item named `name` already.
    func requireNoItem(named name: String, in list: Record) throws {
        guard try records(matching: Self.item(named: name, in: list)).isEmpty else {
            throw RecordError(
                .invalidArguments,
                "list '\(list.name)' already has an item named '\(name)'; item names are unique within a list",
                recordType: ShoppingStore.itemType
            )
        }
    }

    /// The query for the items of list `name` matching `predicate`, sorted by `sort` (by name
    /// when empty).
    func itemsQuery(list name: String, matching predicate: Predicate, sort: [SortDescriptor]) throws -> Query {
        let list = try list(named: name)
        return Query(
            ShoppingStore.itemType,
            predicate: PredicateField("list") == .string(list.recordName) && predicate,
            sort: sort.isEmpty ? [SortDescriptor("name")] : sort
        )
    }

    /// What `assignments` change on an item, typed by the schema. `name=` renames it and
    /// `list=NAME` moves it to the list named NAME; an empty value removes a field's value.
    func itemChanges(_ assignments: [FieldAssignment]) throws -> ItemChanges {
        var changes = ItemChanges()
        for assignment in assignments {
            let field = try assignment.definition(in: schema, recordType: ShoppingStore.itemType)
            switch (field.name, assignment.text) {
            case ("name", ""), ("list", ""):
                throw RecordError(.invalidArguments, "an item's \(field.name) cannot be removed", recordType: ShoppingStore.itemType, field: field.name)
            case ("name", let name):
                changes.name = name
                changes.fields["name"] = .string(name)
            case ("list", let listName):
                let list = try list(named: listName)
                changes.list = list
                changes.fields["list"] = .reference(Reference(list.recordName, action: .deleteSelf))
            case (_, ""):
                changes.fields[field.name] = .some(nil)
            case (_, let text):
                changes.fields[field.name] = try ValueParser.value(text, for: field, in: ShoppingStore.itemType)
            }
        }
        return changes
    }

    private static func named(_ name: String, type: String) -> Query {
        Query(type, predicate: PredicateField("name") == .string(name), limit: 1)
    }

    private static func item(named name: String, in list: Record) -> Query {
        Query(ShoppingStore.itemType, predicate: PredicateField("list") == .string(list.recordName) && PredicateField("name") == .string(name), limit: 1)
    }
}

/// The field changes of `item add` / `item set` assignments.
struct ItemChanges {
    /// New values; `nil` removes a value.
    var fields: [String: Value?] = [:]
    /// The new name, when `name=` is given.
    var name: String?
    /// The list to move to, when `list=` is given.
    var list: Record?
}
