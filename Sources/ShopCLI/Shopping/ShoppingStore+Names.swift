import RecordKit

/// Finding lists and items by name, with the REPL's words when one is missing or taken.
extension ShoppingStore {
    /// The list named `name`, or `unknownItem` suggesting a list whose name differs only in case.
    func list(named name: String) async throws(RecordError) -> Record {
        guard let list = try await backend.records(matching: Self.named(name, type: Self.listType)).first else {
            let meant = try await backend.records(
                matching: Query(Self.listType, predicate: PredicateField("name").equalsIgnoringCase(name), limit: 1))
            throw RecordError(
                .unknownItem,
                "there is no list named '\(name)'" + (meant.first.map { "; did you mean '\($0.name)'?" } ?? "; see the lists with: lists"),
                recordType: Self.listType
            )
        }
        return list
    }

    /// Throws `schemaViolation` when a list is named `name` already. The engine refuses the
    /// duplicate anyway (the schema's `UNIQUE (name)`, with the same code); this says it in
    /// the REPL's words, naming the list.
    func requireNoList(named name: String) async throws(RecordError) {
        guard try await backend.records(matching: Self.named(name, type: Self.listType)).isEmpty else {
            throw RecordError(
                .schemaViolation,
                "there is already a list named '\(name)'; list names are unique, choose another one",
                recordType: Self.listType
            )
        }
    }

    /// The item named `name` in `list`, or `unknownItem` suggesting an item of the list whose
    /// name differs only in case.
    func item(named name: String, in list: Record) async throws(RecordError) -> Record {
        guard let item = try await backend.records(matching: Self.item(named: name, in: list)).first else {
            let inList = PredicateField("list") == .string(list.recordName)
            let meant = try await backend.records(
                matching: Query(Self.itemType, predicate: inList && PredicateField("name").equalsIgnoringCase(name), limit: 1))
            let hint = meant.first.map { "; did you mean '\($0.name)'?" } ?? "; see its items with: items \(LineTokenizer.quote(list.name))"
            throw RecordError(.unknownItem, "list '\(list.name)' has no item named '\(name)'\(hint)", recordType: Self.itemType)
        }
        return item
    }

    /// Throws `schemaViolation` when `list` has an item named `name` already (the engine's
    /// `UNIQUE (list, name)`, in the REPL's words).
    func requireNoItem(named name: String, in list: Record) async throws(RecordError) {
        guard try await backend.records(matching: Self.item(named: name, in: list)).isEmpty else {
            throw RecordError(
                .schemaViolation,
                "list '\(list.name)' already has an item named '\(name)'; item names are unique within a list",
                recordType: Self.itemType
            )
        }
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

    private static func named(_ name: String, type: String) -> Query {
        Query(type, predicate: PredicateField("name") == .string(name), limit: 1)
    }

    private static func item(named name: String, in list: Record) -> Query {
        Query(Self.itemType, predicate: PredicateField("list") == .string(list.recordName) && PredicateField("name") == .string(name), limit: 1)
    }
}
