import RecordKit

/// Finding lists and items by name, with the REPL's words when one is missing or taken.
extension ShoppingStore {
    /// The list named `name`, or `unknownItem` suggesting a list whose name differs only in case.
    func list(named name: String) async throws(RecordError) -> Record {
        guard let list = try await backend.records(matching: Self.named(name, type: Self.listType)).first else {
            throw try await noList(named: name)
        }
        return list
    }

    /// The list named `listName` and its item named `name` (`nil` when it has none), looked up
    /// together for adding that item; `unknownItem` when there is no such list.
    func list(named listName: String, toAddItem name: String) async throws(RecordError) -> (list: Record, item: Record?) {
        try await list(named: listName, withItem: name, forAdding: true)
    }

    /// The list named `listName` and its item named `name` (`nil` when it has none), looked up
    /// together; `unknownItem` when there is no such list.
    private func list(named listName: String, withItem name: String, forAdding: Bool) async throws(RecordError) -> (list: Record, item: Record?) {
        let found = try await backend.namedRecords(list: listName, item: name, forAdding: forAdding)
        guard let list = found.list else { throw try await noList(named: listName) }
        return (list, found.item)
    }

    /// The list named `listName` and its item named `name`, or `unknownItem` for either.
    func item(named name: String, inList listName: String) async throws(RecordError) -> (list: Record, item: Record) {
        let (list, item) = try await list(named: listName, withItem: name, forAdding: false)
        guard let item else { throw try await noItem(named: name, in: list) }
        return (list, item)
    }

    /// `unknownItem` for list `name`, suggesting a list whose name differs only in case.
    private func noList(named name: String) async throws(RecordError) -> RecordError {
        let meant = try await backend.records(matching: Query(Self.listType, predicate: PredicateField("name").equalsIgnoringCase(name), limit: 1))
        return RecordError(
            .unknownItem,
            "there is no list named \(QuotedName.quoted(name))"
                + (meant.first.map { "; did you mean \(QuotedName.quoted($0.name))?" } ?? "; see the lists with: lists"),
            recordType: Self.listType
        )
    }

    /// Throws `schemaViolation` when a list is named `name` already. The engine refuses the
    /// duplicate anyway (the schema's `UNIQUE (name)`, with the same code); this says it in
    /// the REPL's words, naming the list.
    func requireNoList(named name: String) async throws(RecordError) {
        guard try await backend.listNameIsFree(name) else {
            throw RecordError(
                .schemaViolation,
                "there is already a list named \(QuotedName.quoted(name)); list names are unique, choose another one",
                recordType: Self.listType
            )
        }
    }

    /// `unknownItem` for item `name` of `list`, suggesting an item of the list whose name differs
    /// only in case.
    private func noItem(named name: String, in list: Record) async throws(RecordError) -> RecordError {
        let inList = PredicateField("list") == .string(list.recordName)
        let meant = try await backend.records(matching: Query(Self.itemType, predicate: inList && PredicateField("name").equalsIgnoringCase(name), limit: 1))
        let hint = meant.first.map { "; did you mean \(QuotedName.quoted($0.name))?" } ?? "; see its items with: items \(LineTokenizer.quote(list.name))"
        return RecordError(.unknownItem, "list \(QuotedName.quoted(list.name)) has no item named \(QuotedName.quoted(name))\(hint)", recordType: Self.itemType)
    }

    /// Throws `schemaViolation` when `list` has an item named `name` already (the engine's
    /// `UNIQUE (list, name)`, in the REPL's words).
    func requireNoItem(named name: String, in list: Record) async throws(RecordError) {
        guard try await backend.records(matching: Self.item(named: name, in: list)).isEmpty else { throw Self.itemTaken(name, in: list) }
    }

    /// The error for adding item `name` to `list`, which has one of that name.
    static func itemTaken(_ name: String, in list: Record) -> RecordError {
        RecordError(
            .schemaViolation,
            "list \(QuotedName.quoted(list.name)) already has an item named \(QuotedName.quoted(name)); item names are unique within a list",
            recordType: itemType)
    }

    /// The query for the items of list `name` matching `predicate`, sorted by `sort` (by name
    /// when empty).
    func itemsQuery(list name: String, matching predicate: Predicate, sort: [SortDescriptor]) async throws(RecordError) -> Query {
        let list = try await list(named: name)
        return Query(
            Self.itemType,
            predicate: PredicateField("list") == .string(list.recordName) && predicate,
            sort: sort.isEmpty ? [SortDescriptor("name")] : sort
        )
    }

    /// The record of `type` named `name`.
    static func named(_ name: String, type: String) -> Query {
        Query(type, predicate: PredicateField("name") == .string(name), limit: 1)
    }

    /// The item named `name` of `list`.
    static func item(named name: String, in list: Record) -> Query {
        Query(Self.itemType, predicate: PredicateField("list") == .string(list.recordName) && PredicateField("name") == .string(name), limit: 1)
    }
}
