import GraphQL
import OrderedCollections
import RecordKit

/// The RecordKit ``Query`` that the arguments of a list, page or referrers field ask for:
/// `where` (``FilterTranslator``) AND `predicate` (NSPredicate text, ``PredicateParser``),
/// `sort` (``SortTranslator``) and `limit`. The page field's `after` is read separately.
struct QueryArguments: Sendable {
    let recordType: RecordType
    let names: GraphQLNameMap.RecordTypeNames

    /// The query `arguments` (coerced field arguments) ask for.
    func query(_ arguments: Map) throws(RecordError) -> Query {
        let reader = InputReader(recordType: recordType.name, root: names.listField)
        var query = Query(recordType.name)
        guard case .dictionary(let members) = arguments else { return query }
        if let filter = members[GraphQLNames.whereArgument], !filter.isNull, !filter.isUndefined {
            query.predicate = try FilterTranslator(recordType: recordType, names: names).predicate(from: filter)
        }
        if let text = members[GraphQLNames.predicateArgument], !text.isNull, !text.isUndefined {
            let parsed = try PredicateParser.parse(try reader.appending(GraphQLNames.predicateArgument).string(text))
            query.predicate = query.predicate && parsed
        }
        if let sort = members[GraphQLNames.sortArgument], !sort.isNull, !sort.isUndefined {
            query.sort = try SortTranslator(recordType: recordType, names: names).sortDescriptors(from: sort)
        }
        if let limit = members[GraphQLNames.limitArgument], !limit.isNull, !limit.isUndefined {
            let count = try reader.appending(GraphQLNames.limitArgument).int(limit)
            guard count >= 0 else { throw reader.appending(GraphQLNames.limitArgument).error("limit must be zero or more, not \(count)") }
            query.limit = count
        }
        return query
    }

    /// The page field's `after:` cursor, if given.
    func cursor(_ arguments: Map) throws(RecordError) -> String? {
        guard case .dictionary(let members) = arguments, let after = members[GraphQLNames.afterArgument], !after.isNull, !after.isUndefined else {
            return nil
        }
        return try InputReader(recordType: recordType.name, root: names.pageField).appending(GraphQLNames.afterArgument).string(after)
    }
}
