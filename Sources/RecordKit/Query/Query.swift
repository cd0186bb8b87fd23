/// What to fetch: records of one type matching a predicate, in an order, up to a limit.
public struct Query: Sendable, Hashable {
    public var recordType: String
    public var predicate: Predicate
    /// Sort keys, most significant first; ties are always broken by `recordName` (in the
    /// direction of the last key, ascending when there is none), so
    /// the order is total and stable.
    public var sort: [SortDescriptor]
    /// At most this many records (a page size for ``RecordDatabase/page(_:after:)``).
    public var limit: Int?

    public init(_ recordType: String, predicate: Predicate = .all, sort: [SortDescriptor] = [], limit: Int? = nil) {
        self.recordType = recordType
        self.predicate = predicate
        self.sort = sort
        self.limit = limit
    }
}

/// One sort key.
public struct SortDescriptor: Sendable, Hashable, Codable {
    public var key: String
    public var ascending: Bool

    public init(_ key: String, ascending: Bool = true) {
        self.key = key
        self.ascending = ascending
    }
}
