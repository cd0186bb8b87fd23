extension Query {
    /// Whether every text in the query (type, keys, literals, sort keys) is ASCII.
    ///
    /// Swift compares strings by canonical equivalence ("K" written with U+212A KELVIN SIGN
    /// equals "K"), while SQLite compares bytes; two ASCII texts are equal exactly when their
    /// bytes are. A cache keyed by queries may serve a hit only between such queries, or it
    /// would bind one query's bytes for another.
    var hasOnlyASCIIText: Bool {
        recordType.isASCII && sort.allSatisfy { $0.key.isASCII } && predicate.hasOnlyASCIIText
    }
}

extension Predicate {
    var hasOnlyASCIIText: Bool {
        switch self {
        case .all: true
        case .compare(let key, _, let literal, _), .contains(let key, let literal, _): key.isASCII && literal.hasOnlyASCIIText
        case .between(let key, let lower, let upper): key.isASCII && lower.hasOnlyASCIIText && upper.hasOnlyASCIIText
        case .in(let key, let literals, _): key.isASCII && literals.allSatisfy(\.hasOnlyASCIIText)
        case .beginsWith(let key, let prefix, _): key.isASCII && prefix.isASCII
        case .isNull(let key), .distance(let key, _, _, _): key.isASCII
        case .textSearch(let words): words.isASCII
        case .not(let predicate): predicate.hasOnlyASCIIText
        case .and(let predicates), .or(let predicates): predicates.allSatisfy(\.hasOnlyASCIIText)
        }
    }
}

extension Predicate.Literal {
    var hasOnlyASCIIText: Bool {
        switch self {
        case .string(let text): text.isASCII
        case .integer, .double, .bool: true
        case .value(let value): value.hasOnlyASCIIText
        }
    }
}

extension Value {
    var hasOnlyASCIIText: Bool {
        switch self {
        case .string(let text): text.isASCII
        case .reference(let reference): reference.recordName.isASCII
        case .asset(let asset): asset.sha256.isASCII
        case .list(let values): values.allSatisfy(\.hasOnlyASCIIText)
        case .int64, .double, .timestamp, .bytes, .location: true
        }
    }
}

extension String {
    var isASCII: Bool { utf8.allSatisfy { $0 < 0x80 } }
}

extension Projection {
    /// Whether every text in the projection (keys, constants, field and type names, the
    /// predicates and sorts of referrers) is ASCII; see ``Query/hasOnlyASCIIText``.
    var hasOnlyASCIIText: Bool {
        members.allSatisfy { member in
            guard member.key.isASCII else { return false }
            switch member.value {
            case .recordName, .recordType, .createdAt, .modifiedAt, .changeTag: return true
            case .constant(let text), .field(let text): return text.isASCII
            case .parts(let field, let parts):
                return field.isASCII
                    && parts.allSatisfy { part in
                        guard part.key.isASCII else { return false }
                        if case .constant(let text) = part.value { return text.isASCII }
                        return true
                    }
            case .reference(let field, let projections):
                return field.isASCII && projections.allSatisfy { $0.key.isASCII && $0.value.hasOnlyASCIIText }
            case .referrers(let type, let field, let predicate, let sort, _, let inner):
                return type.isASCII && field.isASCII && predicate.hasOnlyASCIIText && sort.allSatisfy { $0.key.isASCII } && inner.hasOnlyASCIIText
            case .aggregate(let type, let field, let predicate, let aggregation):
                return type.isASCII && field.isASCII && predicate.hasOnlyASCIIText && aggregation.hasOnlyASCIIText
            }
        }
    }
}

extension Aggregation {
    /// Whether every text in the aggregation (keys, constants, field names) is ASCII; see
    /// ``Query/hasOnlyASCIIText``.
    var hasOnlyASCIIText: Bool {
        members.allSatisfy { member in
            guard member.key.isASCII else { return false }
            switch member.value {
            case .count: return true
            case .constant(let text): return text.isASCII
            case .function(_, let fields):
                return fields.allSatisfy { field in
                    switch field.value {
                    case .field(let text), .constant(let text): field.key.isASCII && text.isASCII
                    }
                }
            }
        }
    }
}
