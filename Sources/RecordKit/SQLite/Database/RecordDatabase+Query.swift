internal import GRDB

/// One page of a query's results.
public struct RecordPage: Sendable, Hashable {
    public var records: [Record]
    /// Where the next page starts; `nil` on the last page.
    public var cursor: String?
}

/// How SQLite will run a query.
public struct QueryExplanation: Sendable, Hashable, CustomStringConvertible {
    /// The compiled SQL (values appear as `?`).
    public var sql: String
    /// SQLite's `EXPLAIN QUERY PLAN` lines, indented by depth.
    public var plan: [String]

    /// An explanation as another process reported it (`shop --server`).
    public init(sql: String, plan: [String]) {
        self.sql = sql
        self.plan = plan
    }

    public var description: String { plan.joined(separator: "\n") }
}

extension RecordTransaction {
    /// The records matching `query`, in order (those ``access`` may read).
    public func records(matching query: Query) throws -> [Record] {
        var records: [Record] = []
        try forEachRecord(matching: query) { records.append($0) }
        return records
    }

    /// Calls `body` with each record matching `query`, in order, holding only one at a time.
    public func forEachRecord(matching query: Query, _ body: (Record) throws -> Void) throws {
        let compiled = try snapshot.compiled(query, access: access)
        let rows = try Row.fetchCursor(db.cachedStatement(sql: compiled.sql), arguments: compiled.arguments)
        while let row = try rows.next() {
            try body(compiled.layout.record(from: row))
        }
    }

    /// How many records match `query` (at most `query.limit`), counted by SQLite with the
    /// indexes the predicate can use, without reading the records.
    public func count(matching query: Query) throws -> Int {
        let layout = try snapshot.layout(query.recordType)
        let clauses = try QueryCompiler.Clauses(Query(query.recordType, predicate: query.predicate, limit: query.limit), layout: layout, access: access)
        let sql = "SELECT count(*) FROM (SELECT 1 FROM \(layout.table)\(clauses.sql))"
        return try Int.fetchOne(db.cachedStatement(sql: sql), arguments: StatementArguments(values: clauses.arguments)) ?? 0
    }

    /// The page of `query` after `cursor` (the first page when `nil`); `query.limit` is the page size.
    public func page(_ query: Query, after cursor: String? = nil) throws -> RecordPage {
        let read = try readPage(query, after: cursor, keepingKeysOf: .lastRecord)
        return RecordPage(records: read.records, cursor: read.hasMore ? PageCursor(query: query, keys: read.keys.last ?? []).encoded : nil)
    }

    /// The page of `query` after `cursor`, each record with where it stands in the query's
    /// order, to be merged with pages of the same query read from other databases
    /// (``ZoneWideQuery``).
    public func positionedPage(_ query: Query, after cursor: String? = nil) throws -> PositionedPage {
        let read = try readPage(query, after: cursor, keepingKeysOf: .everyRecord)
        let records = zip(read.records, read.keys).map { record, keys in
            PositionedRecord(record: record, position: PageCursor(query: query, keys: keys), ascending: read.directions)
        }
        return PositionedPage(records: records, hasMore: read.hasMore)
    }

    /// Whose sort keys ``readPage(_:after:keepingKeysOf:)`` keeps.
    private enum KeptKeys {
        case lastRecord, everyRecord
    }

    /// The page of `query` after `cursor`: its records, the sort keys of the records `kept`
    /// names (in their order), the keys' directions and whether another page follows.
    private func readPage(
        _ query: Query, after cursor: String?, keepingKeysOf kept: KeptKeys
    ) throws -> (records: [Record], keys: [[DatabaseValue]], directions: [Bool], hasMore: Bool) {
        guard let limit = query.limit else {
            throw RecordError(.invalidArguments, "a paged query needs a limit (the page size)", recordType: query.recordType)
        }
        let compiled = try snapshot.compiled(query, access: access, after: cursor, fetchingOneMore: true)
        // Read off the statement, not copied row by row: the one more row only says there is
        // another page, whose cursor holds the sort keys of the page's last record.
        let rows = try Row.fetchCursor(db.cachedStatement(sql: compiled.sql), arguments: compiled.arguments)
        var records: [Record] = []
        records.reserveCapacity(min(limit, 1000))
        var keys: [[DatabaseValue]] = []
        while records.count < limit, let row = try rows.next() {
            records.append(compiled.layout.record(from: row))
            if kept == .everyRecord || records.count == limit {
                keys.append((0..<compiled.sortKeyCount).map { row[compiled.layout.columnCount + $0] as DatabaseValue })
            }
        }
        let hasMore = try records.count == limit && limit > 0 && rows.next() != nil
        return (records, keys, compiled.sortDirections, hasMore)
    }

    /// The compiled SQL of `query` and SQLite's plan for it.
    public func explain(_ query: Query) throws -> QueryExplanation {
        let compiled = try snapshot.compiled(query, access: access)
        return QueryExplanation(sql: compiled.sql, plan: try queryPlan(compiled.sql, arguments: compiled.arguments))
    }

    /// SQLite's `EXPLAIN QUERY PLAN` lines for `sql`, indented by depth.
    func queryPlan(_ sql: String, arguments: StatementArguments) throws -> [String] {
        let rows = try Row.fetchAll(db, sql: "EXPLAIN QUERY PLAN " + sql, arguments: arguments)
        var depth: [Int: Int] = [0: -1]
        return rows.map { row -> String in
            let id: Int = row["id"]
            let level = (depth[row["parent"]] ?? -1) + 1
            depth[id] = level
            return String(repeating: "  ", count: level) + (row["detail"] as String)
        }
    }
}

extension RecordDatabase {
    /// The records matching `query`, in order.
    public func records(matching query: Query) throws(RecordError) -> [Record] {
        try performRead { try $0.records(matching: query) }
    }

    /// Calls `body` with each record matching `query` without holding the whole result in
    /// memory; reads one consistent snapshot.
    public func forEachRecord(matching query: Query, _ body: (Record) throws -> Void) throws(RecordError) {
        try performRead { try $0.forEachRecord(matching: query, body) }
    }

    /// How many records match `query`; see ``RecordTransaction/count(matching:)``.
    public func count(matching query: Query) throws(RecordError) -> Int {
        try performRead { try $0.count(matching: query) }
    }

    /// The page of `query` after `cursor`; see ``RecordTransaction/page(_:after:)``.
    public func page(_ query: Query, after cursor: String? = nil) throws(RecordError) -> RecordPage {
        try performRead { try $0.page(query, after: cursor) }
    }

    /// The compiled SQL of `query` and SQLite's plan for it.
    public func explain(_ query: Query) throws(RecordError) -> QueryExplanation {
        try performRead { try $0.explain(query) }
    }
}
