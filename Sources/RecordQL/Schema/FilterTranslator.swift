public import GraphQL
public import RecordKit

/// Turns a coerced `where:` value (a `TFilter` object) into the RecordKit ``Predicate`` it
/// means. Pure: no database, no GraphQL execution.
///
/// - Keys of one object are ANDed (one key: that predicate alone; none: ``Predicate/all``);
///   `AND: [..]` → `.and`, `OR: [..]` → `.or` (an empty `OR` matches nothing), `NOT` → `.not`.
/// - A field's operators, ANDed in input order: `eq`…`gte` → `.compare`, `in` → `.in`,
///   `beginsWith` → `.beginsWith`, `contains` → `.contains` (substring of a STRING, element of a
///   LIST), `isNull: true/false` → `.isNull` / `.not(.isNull)`, `distance: {from, lt…}` →
///   `.distance`; `caseInsensitive: true` sets `caseInsensitive:` on the object's operators.
/// - `search` → `.textSearch` (`self CONTAINS`); `recordName`, `createdAt`, `modifiedAt` test
///   the system fields.
/// - Literals: STRING and `recordName` → `.string`, INT64 → `.integer`, DOUBLE and NUMBER →
///   `.double` (`.integer` for NUMBER PREFERRED AS INT64), TIMESTAMP → `.value(.timestamp)`,
///   REFERENCE → `.value(.reference)`, BYTES → `.value(.bytes)`. The engine compiles these
///   exactly as the literals of the same `predicate:` text.
///
/// An explicit `null` anywhere is refused (`invalidArguments`): leave the key out, or use `isNull`.
public struct FilterTranslator: Sendable {
    let recordType: RecordType
    let names: GraphQLNameMap.RecordTypeNames

    init(recordType: RecordType, names: GraphQLNameMap.RecordTypeNames) {
        self.recordType = recordType
        self.names = names
    }

    /// The predicate `filter` (a `TFilter` value) means.
    public func predicate(from filter: Map) throws(RecordError) -> Predicate {
        try predicate(filter, InputReader(recordType: recordType.name, root: names.filterType))
    }

    private func predicate(_ filter: Map, _ reader: InputReader) throws(RecordError) -> Predicate {
        var parts: [Predicate] = []
        for (key, value) in try reader.members(filter) {
            let member = reader.appending(key)
            switch key {
            case GraphQLNames.andKey:
                parts.append(.and(try subfilters(value, member)))
            case GraphQLNames.orKey:
                parts.append(.or(try subfilters(value, member)))
            case GraphQLNames.notKey:
                parts.append(.not(try predicate(value, member)))
            case GraphQLNames.searchKey where !recordType.searchableFieldNames.isEmpty:
                parts.append(.textSearch(try member.string(value)))
            case "recordName":
                parts.append(try operators(value, key: key, kind: .scalar(.recordName), member))
            case "createdAt", "modifiedAt":
                parts.append(try operators(value, key: key, kind: .scalar(.timestamp), member))
            default:
                guard let fieldName = names.field(named: key), let field = recordType.field(named: fieldName), field.isFilterable else {
                    throw member.error("\(names.filterType) has no key '\(key)'")
                }
                parts.append(try operators(value, key: field.name, kind: FilterKind(field.type), reader.appending(key, field: field.name)))
            }
        }
        return Self.conjunction(parts)
    }

    private func subfilters(_ value: Map, _ reader: InputReader) throws(RecordError) -> [Predicate] {
        var result: [Predicate] = []
        for (index, element) in reader.list(value).enumerated() {
            result.append(try predicate(element, reader.element(index)))
        }
        return result
    }

    /// The predicate of one key's operator object.
    private func operators(_ value: Map, key: String, kind: FilterKind, _ reader: InputReader) throws(RecordError) -> Predicate {
        let members = try reader.members(value)
        var caseInsensitive = false
        if let flag = members.first(where: { $0.key == FilterOperator.caseInsensitive.rawValue }) {
            caseInsensitive = try reader.appending(flag.key).bool(flag.value)
        }
        var parts: [Predicate] = []
        for (name, operand) in members {
            let member = reader.appending(name)
            guard let op = FilterOperator(rawValue: name), kind.operators.contains(op) else {
                throw member.error("\(kind.typeName) has no operator '\(name)' (it has \(kind.operators.map(\.rawValue).joined(separator: ", ")))")
            }
            if let comparison = op.comparison {
                parts.append(.compare(key: key, comparison, try literal(operand, kind, member), caseInsensitive: caseInsensitive))
                continue
            }
            switch op {
            case .in:
                var literals: [Predicate.Literal] = []
                for (index, element) in member.list(operand).enumerated() {
                    literals.append(try literal(element, kind, member.element(index)))
                }
                parts.append(.in(key: key, literals, caseInsensitive: caseInsensitive))
            case .beginsWith:
                parts.append(.beginsWith(key: key, try member.string(operand), caseInsensitive: caseInsensitive))
            case .contains:
                parts.append(.contains(key: key, try literal(operand, kind, member), caseInsensitive: caseInsensitive))
            case .isNull:
                parts.append(try member.bool(operand) ? .isNull(key: key) : .not(.isNull(key: key)))
            case .distance:
                parts.append(try distance(operand, key: key, member))
            case .caseInsensitive, .eq, .ne, .lt, .lte, .gt, .gte:
                continue
            }
        }
        return Self.conjunction(parts)
    }

    /// `distance: {from, lt, lte, gt, gte}`: one `.distance` per bound, ANDed.
    private func distance(_ value: Map, key: String, _ reader: InputReader) throws(RecordError) -> Predicate {
        let members = try reader.members(value)
        guard let from = members.first(where: { $0.key == "from" }) else { throw reader.error("a distance needs from: {latitude, longitude}") }
        let origin = try reader.appending("from").location(from.value)
        var parts: [Predicate] = []
        for (name, bound) in members where name != "from" {
            let member = reader.appending(name)
            guard let op = FilterOperator(rawValue: name), FilterOperator.orderings.contains(op), let comparison = op.comparison else {
                throw member.error("\(GraphQLNames.distanceFilterType) has no key '\(name)' (it has from, lt, lte, gt, gte)")
            }
            parts.append(.distance(key: key, from: origin, comparison, kilometres: try member.double(bound)))
        }
        return Self.conjunction(parts)
    }

    /// The literal `value` is as an operand of `kind`.
    private func literal(_ value: Map, _ kind: FilterKind, _ reader: InputReader) throws(RecordError) -> Predicate.Literal {
        switch kind.operand {
        case .string: .string(try reader.string(value))
        case .recordName: .string(try reader.id(value))
        case .int64: .integer(try reader.int64(value))
        case .float: .double(try reader.double(value))
        case .timestamp: .value(.timestamp(try reader.timestamp(value)))
        case .reference: .value(.reference(Reference(try reader.id(value))))
        case .bytes: .value(.bytes(try reader.bytes(value)))
        case nil: throw reader.error("\(kind.typeName) takes no value here")
        }
    }

    /// `parts` ANDed: the one part alone, ``Predicate/all`` for none.
    static func conjunction(_ parts: [Predicate]) -> Predicate {
        switch parts.count {
        case 0: .all
        case 1: parts[0]
        default: .and(parts)
        }
    }
}

extension RecordKit.FieldDefinition {
    /// Whether `TFilter` and `TSort` have this user field: not when RecordKit would read its name
    /// as a system key (see ``GraphQLNameMap``).
    var isFilterable: Bool { !GraphQLNames.predicateSystemKeys.contains(name) }
}
