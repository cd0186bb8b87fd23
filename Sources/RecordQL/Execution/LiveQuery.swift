public import RecordKit

/// The results of a subscription (``RecordQLEngine/subscribe(_:access:)``), as an async
/// sequence of responses: the query's result when iteration starts, then its new result after
/// each commit that touches the record types it reads, whenever that result differs from the
/// last one given. A commit by another process on the same file counts too; a rolled-back
/// transaction never does (``RecordStore/commitNotices()``), and every result is read from a
/// committed snapshot, acting for the subscriber's access, as a query would be.
///
/// It is pulled: nothing is computed before the consumer asks for the next result, and the
/// commits made meanwhile are merged into one re-run, so a slow consumer costs no memory. The
/// sequence ends when the task iterating it is cancelled.
public struct LiveQuery: AsyncSequence, Sendable {
    public typealias Element = GraphQLResponse
    public typealias Failure = Never

    let engine: RecordQLEngine
    let operation: PreparedOperation
    let access: AccessPolicy
    /// Taken when the subscription was made, so no commit after that is missed.
    let notices: CommitNotices

    public func makeAsyncIterator() -> Iterator {
        Iterator(query: self, notices: notices.makeAsyncIterator())
    }

    public struct Iterator: AsyncIteratorProtocol {
        let query: LiveQuery
        var notices: CommitNotices.Iterator
        /// The JSON of the last response given; `nil` before the first.
        var last: String?
        /// The record types the operation reads, known after the first run; `nil`: any.
        var recordTypes: Set<String>?

        init(query: LiveQuery, notices: CommitNotices.Iterator) {
            self.query = query
            self.notices = notices
            recordTypes = query.operation.recordTypesRead
        }

        /// The first result, or the next one that differs from the last; `nil` once the task
        /// is cancelled.
        public mutating func next() async -> GraphQLResponse? {
            if last != nil {
                while true {
                    guard let notice = await notices.next() else { return nil }
                    if let recordTypes, !notice.touches(recordTypes) { continue }
                    let response = await query.engine.run(query.operation, access: query.access)
                    guard !Task.isCancelled else { return nil }
                    if response.json != last {
                        last = response.json
                        return response
                    }
                }
            }
            // Read only once every commit after the read will be told.
            await query.notices.ready()
            let response = await query.engine.run(query.operation, access: query.access)
            guard !Task.isCancelled else { return nil }
            last = response.json
            return response
        }
    }
}

extension RecordQLEngine {
    /// The live results of `operation`, a subscription (or a query), acting for `access`
    /// (``LiveQuery``). Commits are watched from this call on.
    public func subscribe(_ operation: PreparedOperation, access: AccessPolicy = .owner) -> LiveQuery {
        LiveQuery(engine: self, operation: operation, access: access, notices: store.commitNotices())
    }
}

extension PreparedOperation {
    /// The record types the operation's root fields read (their records, the records they
    /// reference and those referring to them); `nil` when it reads something else too (the
    /// change feed, assets) or is a mutation, so that any commit may change it.
    var recordTypesRead: Set<String>? {
        guard case .query(let plan) = plan else { return nil }
        var types: Set<String> = []
        for field in plan.fields {
            switch field.step {
            case .records(let query, let projection):
                types.insert(query.recordType)
                projection.addRecordTypes(to: &types)
            case .aggregate(let query, _):
                types.insert(query.recordType)
            case .page(let query, _, let members):
                types.insert(query.recordType)
                for case .records(_, let projection) in members { projection.addRecordTypes(to: &types) }
            case .constant, .introspection:
                continue
            case .asset, .changes:
                return nil
            }
        }
        return types
    }
}

extension Projection {
    /// Adds the record types the projection reads besides the projected record's own.
    fileprivate func addRecordTypes(to types: inout Set<String>) {
        for member in members {
            switch member.value {
            case .reference(_, let projections):
                for (recordType, projection) in projections {
                    types.insert(recordType)
                    projection.addRecordTypes(to: &types)
                }
            case .referrers(let recordType, _, _, _, _, let projection):
                types.insert(recordType)
                projection.addRecordTypes(to: &types)
            case .aggregate(let recordType, _, _, _):
                types.insert(recordType)
            case .recordName, .recordType, .createdAt, .modifiedAt, .changeTag, .constant, .field, .parts:
                continue
            }
        }
    }
}
