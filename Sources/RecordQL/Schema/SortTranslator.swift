public import GraphQL
public import RecordKit

/// Turns a coerced `sort:` value (a list of `TSort` objects) into RecordKit sort descriptors,
/// most significant first: `[{number: DESC}, {name: ASC}]` → `[number desc, name asc]`.
///
/// Each `TSort` object names exactly one key (a sortable user field or `recordName`,
/// `createdAt`, `modifiedAt`); zero or several keys in one object fail with `invalidArguments`,
/// since an object's keys have no order to sort by. A single object counts as a list of one.
public struct SortTranslator: Sendable {
    let recordType: RecordType
    let names: GraphQLNameMap.RecordTypeNames

    init(recordType: RecordType, names: GraphQLNameMap.RecordTypeNames) {
        self.recordType = recordType
        self.names = names
    }

    /// The sort descriptors `sort` (a `[TSort!]` value) means.
    public func sortDescriptors(from sort: Map) throws(RecordError) -> [SortDescriptor] {
        let reader = InputReader(recordType: recordType.name, root: GraphQLNames.sortArgument)
        var descriptors: [SortDescriptor] = []
        for (index, element) in reader.list(sort).enumerated() {
            let item = reader.element(index)
            let members = try item.members(element)
            guard members.count == 1, let (key, direction) = members.first else {
                let given = members.isEmpty ? "none" : members.map(\.key).sorted().joined(separator: ", ")
                throw item.error("each \(names.sortType) object names exactly one key, e.g. sort: [{number: DESC}, {name: ASC}]; this one names \(given)")
            }
            let member = item.appending(key)
            let text = try member.string(direction)
            guard let order = SortDirection(rawValue: text) else {
                throw member.error("sort direction is ASC or DESC, not '\(text)'")
            }
            descriptors.append(SortDescriptor(try engineKey(key, member), ascending: order == .ascending))
        }
        return descriptors
    }

    /// The RecordKit key of the `TSort` key `key`.
    private func engineKey(_ key: String, _ reader: InputReader) throws(RecordError) -> String {
        if GraphQLNames.sortSystemKeys.contains(key) { return key }
        guard let fieldName = names.field(named: key), let field = recordType.field(named: fieldName), field.isSortable else {
            throw reader.error("\(names.sortType) has no key '\(key)'")
        }
        return field.name
    }
}

extension RecordKit.FieldDefinition {
    /// Whether `TSort` has this user field: an ordered type, and a name RecordKit reads as the field.
    var isSortable: Bool { type.isOrdered && isFilterable }
}
