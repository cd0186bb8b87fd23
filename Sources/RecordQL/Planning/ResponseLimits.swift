import RecordKit

/// The most records one response may hold, at every level together: the records of each root
/// field, the records their references resolve to and the referring records listed under them,
/// for a query or for what a mutation returns. Past it the request fails with `limitExceeded`
/// (a mutation then applies nothing), telling the client to ask for fewer with `limit:` or to
/// page through the records with the `…Page` field. The maximum is the engine's
/// ``RecordQLEngine/maximumResponseRecords`` (10,000 unless set; `nil` for none).
///
/// Enforced in two steps. While planning, every list in the request (a root field, a page, the
/// referrers under a record) is limited to one record more than the maximum, so SQLite never
/// builds a longer one. After the SQL has built the JSON, the records in it are counted,
/// following the projection; that count is skipped when the limits the request gives already
/// bound the response below the maximum (the usual `limit: 50` query pays nothing).
enum ResponseLimits {
    /// The most records in one response, unless the engine says otherwise.
    static let maximumRecords = RecordQLEngine.defaultMaximumResponseRecords

    /// `limit` lowered so that one list never holds more than one record past `maximum`.
    static func capped(_ limit: Int?, maximum: Int?) -> Int? {
        guard let maximum else { return limit }
        return min(limit ?? Int.max, maximum + 1)
    }

    /// `projection` with the referrers listed at every depth capped the same way.
    static func capped(_ projection: Projection, maximum: Int?) -> Projection {
        guard maximum != nil else { return projection }
        return Projection(
            projection.members.map { member in
                switch member.value {
                case .reference(let field, let projections):
                    return Projection.Member(member.key, .reference(field: field, projections.mapValues { capped($0, maximum: maximum) }))
                case .referrers(let type, let field, let predicate, let sort, let limit, let inner):
                    return Projection.Member(
                        member.key,
                        .referrers(
                            recordType: type, field: field, predicate: predicate, sort: sort, limit: capped(limit, maximum: maximum),
                            capped(inner, maximum: maximum))
                    )
                default:
                    return member
                }
            })
    }

    /// Fails when the records in `values` (each parsed JSON projected by its projection: a
    /// record, an array of them, or null) are more than `maximum` together. `bound` is
    /// what the request's limits allow at most, when they bound it; within the maximum the JSON
    /// is not even parsed.
    static func check(bound: Int?, maximum: Int?, _ values: () -> [(JSONValue?, Projection)]) throws(GraphQLFailure) {
        guard let maximum else { return }
        if let bound, bound <= maximum { return }
        var count = 0
        for case (let value?, let projection) in values() {
            count += records(in: value, projection)
            if count > maximum { throw tooMany(maximum) }
        }
    }

    static func tooMany(_ maximum: Int) -> GraphQLFailure {
        GraphQLFailure(
            .limitExceeded,
            "the response would hold more than \(maximum) records; ask for fewer with limit:, or page through them with the …Page field and its cursor",
            stage: .execution
        )
    }

    /// The records in `value`: a record object projected by `projection` (with the records
    /// under it), an array of them, or null.
    static func records(in value: JSONValue, _ projection: Projection) -> Int {
        switch value {
        case .array(let elements):
            return elements.reduce(0) { $0 + records(in: $1, projection) }
        case .object(let members):
            let byKey = Dictionary(members.map { ($0.key, $0.value) }, uniquingKeysWith: { first, _ in first })
            var count = 1
            for member in projection.members {
                guard let nested = byKey[member.key] else { continue }
                switch member.value {
                case .reference(_, let projections):
                    // The target's type is not in the JSON; the projections differ only in the
                    // members that type has, so their union counts what is there.
                    count += records(in: nested, Projection(projections.sorted { $0.key < $1.key }.flatMap(\.value.members)))
                case .referrers(_, _, _, _, _, let inner):
                    count += records(in: nested, inner)
                default:
                    continue
                }
            }
            return count
        default:
            return 0
        }
    }

    /// The most records `limit` records of `recordType` projected by `projection` can come to,
    /// or `nil` when nothing in the request bounds it (no limit, or a list of references).
    static func bound(limit: Int?, of recordType: RecordType, _ projection: Projection, in schema: Schema) -> Int? {
        guard let limit, let each = bound(of: recordType, projection, in: schema) else { return nil }
        let (product, overflow) = limit.multipliedReportingOverflow(by: each)
        return overflow ? nil : product
    }

    private static func bound(of recordType: RecordType, _ projection: Projection, in schema: Schema) -> Int? {
        var total = 1
        for member in projection.members {
            let nested: Int?
            switch member.value {
            case .reference(let field, let projections):
                guard recordType.field(named: field)?.type.elementType == nil else { return nil }
                let targets = projections.map { name, inner in schema.recordType(named: name).flatMap { bound(of: $0, inner, in: schema) } }
                nested = targets.contains { $0 == nil } ? nil : targets.compactMap { $0 }.max() ?? 0
            case .referrers(let type, _, _, _, let limit, let inner):
                nested = schema.recordType(named: type).flatMap { bound(limit: limit, of: $0, inner, in: schema) }
            default:
                nested = 0
            }
            guard let nested else { return nil }
            let (sum, overflow) = total.addingReportingOverflow(nested)
            if overflow { return nil }
            total = sum
        }
        return total
    }
}
