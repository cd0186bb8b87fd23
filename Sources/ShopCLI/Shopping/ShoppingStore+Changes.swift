import RecordKit

/// What `item add` and `item set` assignments change, typed by the schema.
extension ShoppingStore {
    /// What `assignments` change on an item, each field given once. `name=` renames it and
    /// `list=NAME` moves it to the list named NAME; a REFERENCE value, and each element of a
    /// LIST<REFERENCE> one, is resolved to an existing record; an empty value removes a field's
    /// value.
    func itemChanges(_ assignments: [FieldAssignment]) async throws(RecordError) -> ItemChanges {
        var changes = ItemChanges()
        guard !assignments.isEmpty else { return changes }
        let schema = try await backend.schema()
        var assigned: Set<String> = []
        for assignment in assignments {
            let field = try assignment.definition(in: schema, recordType: Self.itemType)
            guard assigned.insert(field.name).inserted else {
                throw RecordError(
                    .invalidArguments, "\(field.name)= is given twice; give each field once", recordType: Self.itemType, field: field.name)
            }
            switch (field.name, assignment.text) {
            case ("name", ""), ("list", ""):
                throw RecordError(.invalidArguments, "an item's \(field.name) cannot be removed", recordType: Self.itemType, field: field.name)
            case ("name", let name):
                changes.name = name
                changes.fields["name"] = .string(name)
            case ("list", let listName):
                let list = try await list(named: listName)
                changes.list = list
                changes.fields["list"] = .reference(Reference(list.recordName, action: .deleteSelf))
            case (_, ""):
                changes.fields[field.name] = .some(nil)
            case (_, let text) where field.type == .reference:
                changes.fields[field.name] = .reference(Reference(try await referencedRecordName(text, by: field, in: schema), action: .none))
            case (_, let text) where field.type == .list(.reference):
                var references: [Value] = []
                for element in try ListText.elements(text, for: field, in: Self.itemType) {
                    references.append(.reference(Reference(try await referencedRecordName(element, by: field, in: schema), action: .none)))
                }
                changes.fields[field.name] = .list(references)
            case (_, let text):
                changes.fields[field.name] = try ValueParser.value(text, for: field, in: Self.itemType)
            }
        }
        return changes
    }

    /// The recordName a `FIELD=TEXT` assignment to REFERENCE `field` (or one element of a
    /// LIST<REFERENCE> `field`) points at: for a field that declares its record type, the record
    /// of that type whose `name` is `text` (as `list=` finds lists), else the record named `text`
    /// by recordName; `unknownItem` when there is none, so that no dangling reference is stored.
    private func referencedRecordName(_ text: String, by field: FieldDefinition, in schema: Schema) async throws(RecordError) -> String {
        let owner = "\(Self.itemType).\(field.name)"
        if let type = field.referencedType, schema.recordType(named: type)?.field(named: "name")?.type == .string {
            let matches = try await backend.records(matching: Query(type, predicate: PredicateField("name") == .string(text), limit: 2))
            if matches.count > 1 {
                throw RecordError(
                    .invalidArguments,
                    "\(owner): more than one \(type) record is named '\(text)' (\(matches.map(\.recordName).joined(separator: ", ")), …); give the recordName instead",
                    recordType: Self.itemType, field: field.name
                )
            }
            if let match = matches.first { return match.recordName }
        }
        if let target = try await backend.fetch(recordNames: [text]).first, field.referencedType.map({ $0 == target.recordType }) ?? true {
            return target.recordName
        }
        let what = field.referencedType.map { "no \($0) record named '\(text)' (by name or recordName)" } ?? "no record named '\(text)'"
        let create = field.referencedType.map { "; create it first, e.g. with: mutation { create\($0)(fields: {name: \"\(text)\"}) { recordName } }" } ?? ""
        throw RecordError(.unknownItem, "\(owner) references \(what)\(create)", recordType: Self.itemType, field: field.name)
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
