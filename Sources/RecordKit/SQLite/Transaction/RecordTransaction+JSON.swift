internal import GRDB

/// JSON queries: the response is built inside SQLite, one statement per call.
extension RecordTransaction {
    /// A JSON array of the records matching `query`, each object built by `projection`.
    public func json(_ query: Query, projection: Projection) throws -> String {
        try json(compileJSON(query, projection: projection))
    }

    /// The same, compiled once to run many times: ``json(_:)`` runs it in any transaction that
    /// sees the same schema version.
    public func compileJSON(_ query: Query, projection: Projection) throws -> CompiledJSONQuery {
        try snapshot.compiledJSON(query, projection: projection, access: access) { try compileJSONUncached(query, projection: projection) }
    }

    private func compileJSONUncached(_ query: Query, projection: Projection) throws -> CompiledJSONQuery {
        let layout = try snapshot.layout(query.recordType)
        var compiler = ProjectionCompiler(snapshot: snapshot, access: access)
        let alias = compiler.nextAlias()
        let row = try compiler.row(projection, layout: layout, alias: alias)
        let clauses = try QueryCompiler.Clauses(query, layout: layout, access: access, qualifier: alias)
        compiler.append(clauses.arguments)
        let sql = ProjectionCompiler.array(of: row, table: layout.table, alias: alias, clauses: clauses.sql)
        return CompiledJSONQuery(schemaVersion: schemaVersion, access: access, sql: sql, arguments: StatementArguments(values: compiler.arguments))
    }

    /// The aggregates of the records `query` selects (its sort and limit are not used) as one
    /// JSON object built by `aggregation`, compiled once to run many times with ``json(_:)``.
    public func compileAggregateJSON(_ query: Query, aggregation: Aggregation) throws -> CompiledJSONQuery {
        var compiler = ProjectionCompiler(snapshot: snapshot, access: access)
        let sql = try compiler.aggregateSelect(aggregation, query: query)
        return CompiledJSONQuery(schemaVersion: schemaVersion, access: access, sql: sql, arguments: StatementArguments(values: compiler.arguments))
    }

    /// The JSON array of a query compiled by ``compileJSON(_:projection:)``. Throws
    /// `internalError` when this transaction sees another schema version than it was compiled
    /// for, or acts for another ``access``.
    public func json(_ compiled: CompiledJSONQuery) throws -> String {
        guard compiled.schemaVersion == schemaVersion else {
            throw RecordError(.internalError, "a query compiled for schema version \(compiled.schemaVersion) ran on version \(schemaVersion); compile it again")
        }
        guard compiled.access == access else {
            throw RecordError(.internalError, "a query compiled for one caller ran for another; compile it again")
        }
        return try String.fetchOne(db.cachedStatement(sql: compiled.sql), arguments: compiled.arguments) ?? "[]"
    }

    /// One page of `query` (its `limit` is the page size): the JSON array of the page's records
    /// and the cursor of the next page, `nil` on the last.
    public func jsonPage(_ query: Query, after cursor: String?, projection: Projection) throws -> (records: String, cursor: String?) {
        guard let limit = query.limit else {
            throw RecordError(.invalidArguments, "a paged query needs a limit (the page size)", recordType: query.recordType)
        }
        let layout = try snapshot.layout(query.recordType)
        var compiler = ProjectionCompiler(snapshot: snapshot, access: access)
        let alias = compiler.nextAlias()
        let row = try compiler.row(projection, layout: layout, alias: alias)
        let clauses = try QueryCompiler.Clauses(query, layout: layout, access: access, qualifier: alias, after: cursor, fetchingOneMore: true)
        compiler.append(clauses.arguments)
        let keys = clauses.keys.map(\.expression).joined(separator: ", ")
        let sql = "SELECT \(row.object), \(keys) FROM \(layout.table) AS \(alias)\(row.joins)\(clauses.sql)"
        let rows = try Row.fetchAll(db.cachedStatement(sql: sql), arguments: StatementArguments(values: compiler.arguments))
        let page = rows.prefix(limit)
        let records = "[" + page.map { $0[0] as String }.joined(separator: ",") + "]"
        guard rows.count > limit, let last = page.last else { return (records, nil) }
        let position = (1...clauses.keys.count).map { last[$0] as DatabaseValue }
        return (records, PageCursor(query: query, keys: position).encoded)
    }

    /// The record `recordName` of `recordType` as a JSON object built by `projection`, or `nil`.
    /// (Compiled once per schema version, projection and ``access``: every write of a mutation
    /// reads its saved record back through this.)
    public func json(recordName: String, recordType: String, projection: Projection) throws -> String? {
        let compiled = try snapshot.compiledJSON(Query(recordType), projection: projection, access: access, readingOneRecordByName: true) {
            let layout = try snapshot.layout(recordType)
            var compiler = ProjectionCompiler(snapshot: snapshot, access: access)
            let alias = compiler.nextAlias()
            let row = try compiler.row(projection, layout: layout, alias: alias)
            let sql = "SELECT \(row.object) FROM \(layout.table) AS \(alias)\(row.joins) WHERE \(alias).\(SQLName.recordName) = ?"
            return CompiledJSONQuery(schemaVersion: schemaVersion, access: access, sql: sql, arguments: StatementArguments(values: compiler.arguments))
        }
        return try String.fetchOne(db.cachedStatement(sql: compiled.sql), arguments: compiled.arguments + [recordName.databaseValue])
    }

    /// The compiled SQL of a JSON query and SQLite's plan for it.
    public func explainJSON(_ query: Query, projection: Projection) throws -> QueryExplanation {
        try explain(compileJSON(query, projection: projection))
    }

    /// The compiled SQL of a JSON aggregate query and SQLite's plan for it.
    public func explainAggregateJSON(_ query: Query, aggregation: Aggregation) throws -> QueryExplanation {
        try explain(compileAggregateJSON(query, aggregation: aggregation))
    }

    private func explain(_ compiled: CompiledJSONQuery) throws -> QueryExplanation {
        QueryExplanation(sql: compiled.sql, plan: try queryPlan(compiled.sql, arguments: compiled.arguments))
    }
}

/// A JSON query (``RecordTransaction/json(_:projection:)``) compiled to its SQL statement and
/// bound values for one schema version, to run again without compiling it again.
public struct CompiledJSONQuery: Sendable {
    /// The schema version it was compiled for; it runs only in transactions that see it.
    public let schemaVersion: Int
    /// The caller it was compiled for; it runs only in transactions acting for it.
    public let access: AccessPolicy
    let sql: String
    let arguments: StatementArguments
}
