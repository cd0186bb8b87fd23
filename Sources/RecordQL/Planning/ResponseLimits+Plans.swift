import RecordKit

/// ``ResponseLimits`` applied to what queries and mutations return.
extension ResponseLimits {
    /// Fails when the root fields of a query, answered with `results` (JSON texts by position in
    /// the plan), hold more than the plan's maximum of records together.
    static func check(_ plan: QueryPlan, results: [String?], schema: Schema) throws(GraphQLFailure) {
        var bound: Int? = 0
        for field in plan.fields {
            switch field.step {
            case .records(let query, let projection):
                bound = sum(bound, self.bound(limit: query.limit, of: query.recordType, projection, in: schema))
            case .page(let query, _, let members):
                for case .records(_, let projection) in members {
                    bound = sum(bound, self.bound(limit: query.limit, of: query.recordType, projection, in: schema))
                }
            default:
                continue
            }
        }
        try check(bound: bound, maximum: plan.maximumRecords) {
            zip(plan.fields, results).flatMap { field, result -> [(JSONValue?, Projection)] in
                guard let result else { return [] }
                switch field.step {
                case .records(_, let projection):
                    return [(JSONValue(parsing: result), projection)]
                case .page(_, _, let members):
                    let page = JSONValue(parsing: result)
                    return members.compactMap { member in
                        guard case .records(let key, let projection) = member else { return nil }
                        return (page?[key], projection)
                    }
                default:
                    return []
                }
            }
        }
    }

    /// Fails when the records a mutation saved, each projected as its selection asks (`saved`:
    /// the JSON object, the record type, the projection), hold more than `maximum` records
    /// together; the mutation's transaction then rolls back.
    static func check(saved: [(json: String, recordType: String, projection: Projection)], maximum: Int?, schema: Schema) throws(GraphQLFailure) {
        var bound: Int? = 0
        for record in saved {
            bound = sum(bound, self.bound(limit: 1, of: record.recordType, record.projection, in: schema))
        }
        try check(bound: bound, maximum: maximum) {
            saved.map { (JSONValue(parsing: $0.json), $0.projection) }
        }
    }

    private static func bound(limit: Int?, of recordType: String, _ projection: Projection, in schema: Schema) -> Int? {
        schema.recordType(named: recordType).flatMap { bound(limit: limit, of: $0, projection, in: schema) }
    }

    private static func sum(_ left: Int?, _ right: Int?) -> Int? {
        guard let left, let right else { return nil }
        let (total, overflow) = left.addingReportingOverflow(right)
        return overflow ? nil : total
    }
}
