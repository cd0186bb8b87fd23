import RecordKit

/// Finding lists and items by name inside one transaction, so a check and the write that
/// depends on it see the same data.
extension RecordTransaction {
    /// The list named `name`, or `unknownItem` suggesting a list whose name differs only in case.
    func list(named name: String) throws -> Record {
        guard let list = try records(matching: Self.named(name, type: ShoppingStore.listType)).first else {
            let meant = try records(matching: Query(ShoppingStore.listType, predicate: PredicateField("name").equalsIgnoringCase(name), limit: 1))
            throw RecordError(
                .unknownItem,
                "there is no list named '\(name)'" + (meant.first.map { "; did you mean '\($0.name)'?" } ?? "; see the lists with: lists"),
                recordType: ShoppingStore.listType
            )
        }
        return list
    }

    /// Throws `schemaViolation` when a list is named `name` already. The engine refuses the
    /// duplicate anyway (the schema's `UNIQUE (name)`, with the same code); this says it in
    /// the REPL's words, naming the list.
    func requireNoList(named name: String) throws {
        guard try records(matching: Self.named(name, type: ShoppingStore.listType)).isEmpty else {
            throw RecordError(
                .schemaViolation,
                "there is already a list named '\(name)'; list names are unique, choose another one",
                recordType: ShoppingStore.listType
            )
        }
    }

    /// The item named `name` in `list`, or `unknownItem` suggesting an item of the list whose
    /// name differs only in case.
    func item(named name: String, in list: Record) throws -> Record {
        guard let item = try records(matching: Self.item(named: name, in: list)).first else {
            let inList = PredicateField("list") == .string(list.recordName)
            let meant = try records(matching: Query(ShoppingStore.itemType, predicate: inList && PredicateField("name").equalsIgnoringCase(name), limit: 1))
            let hint = meant.first.map { "; did you mean '\($0.name)'?" } ?? "; see its items with: items \(LineTokenizer.quote(list.name))"
            throw RecordError(.unknownItem, "list '\(list.name)' has no item named '\(name)'\(hint)", recordType: ShoppingStore.itemType)
        }
        return item
    }

    /// Throws `schemaViolation` when `list` has an item named `name` already (the engine's
    /// `UNIQUE (list, name)`, in the REPL's words).
    func requireNoItem(named name: String, in list: Record) throws {
        guard try records(matching: Self.item(named: name, in: list)).isEmpty else {
            throw RecordError(
                .schemaViolation,
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
            case (_, let text) where field.type == .reference:
                changes.fields[field.name] = .reference(Reference(try referencedRecordName(text, by: field), action: .none))
            case (_, let text):
                changes.fields[field.name] = try ValueParser.value(text, for: field, in: ShoppingStore.itemType)
            }
        }
        return changes
    }

    /// The recordName a `FIELD=TEXT` assignment to REFERENCE `field` points at: for a field that
    /// declares its record type, the record of that type whose `name` is `text` (as `list=`
    /// finds lists), else the record named `text` by recordName; `unknownItem` when there is none,
    /// so that no dangling reference is stored.
    func referencedRecordName(_ text: String, by field: FieldDefinition) throws -> String {
        let owner = "\(ShoppingStore.itemType).\(field.name)"
        if let type = field.referencedType, schema.recordType(named: type)?.field(named: "name")?.type == .string {
            let matches = try records(matching: Query(type, predicate: PredicateField("name") == .string(text), limit: 2))
            if matches.count > 1 {
                throw RecordError(
                    .invalidArguments,
                    "\(owner): more than one \(type) record is named '\(text)' (\(matches.map(\.recordName).joined(separator: ", ")), …); give the recordName instead",
                    recordType: ShoppingStore.itemType, field: field.name
                )
            }
            if let match = matches.first { return match.recordName }
        }
        if let target = try fetch(recordName: text), field.referencedType.map({ $0 == target.recordType }) ?? true {
            return target.recordName
        }
        let what = field.referencedType.map { "no \($0) record named '\(text)' (by name or recordName)" } ?? "no record named '\(text)'"
        let create = field.referencedType.map { "; create it first, e.g. with: mutation { create\($0)(fields: {name: \"\(text)\"}) { recordName } }" } ?? ""
        throw RecordError(.unknownItem, "\(owner) references \(what)\(create)", recordType: ShoppingStore.itemType, field: field.name)
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
