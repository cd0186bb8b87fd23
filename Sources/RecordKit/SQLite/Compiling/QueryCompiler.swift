internal import GRDB

/// A query compiled to one SQL statement with its bound arguments.
struct CompiledQuery: Sendable {
    var sql: String
    var values: [DatabaseValue]
    /// How each of ``values`` is made from the parameters of the query's readable predicate
    /// (``QueryCompiler/readable(_:layout:access:)``).
    var bindings: [ArgumentBinding]
    var layout: TableLayout
    /// The direction of each sort-key column that follows the record columns in each row (for
    /// cursors), `true` for ascending.
    var sortDirections: [Bool]
    /// How many sort-key columns follow the record columns.
    var sortKeyCount: Int { sortDirections.count }

    var arguments: StatementArguments { StatementArguments(values: values) }

    /// The same statement bound with `parameters`, those of a query of the same shape
    /// (``Predicate/parameterized(into:)``): what compiling that query would give.
    func rebound(to parameters: [QueryParameter]) throws(RecordError) -> CompiledQuery {
        var rebound = self
        rebound.values = []
        rebound.values.reserveCapacity(bindings.count)
        for binding in bindings {
            rebound.values.append(try binding.value(in: parameters))
        }
        return rebound
    }
}

/// Compiles ``Query`` values to SQL. Pure: the schema layout in, SQL and arguments out.
///
/// The order is the query's sort keys then `recordName`, so it is total and stable; a page continues
/// after a ``PageCursor`` with a keyset condition (no OFFSET), which stays correct when records
/// are inserted between pages. For an ascending first key a redundant `key >= value` bound lets
/// SQLite seek straight to the position in the index.
enum QueryCompiler {
    struct SortKey {
        var expression: String
        var ascending: Bool
    }

    static func compile(
        _ query: Query, layout: TableLayout, access: AccessPolicy, after cursor: String? = nil, fetchingOneMore: Bool = false
    ) throws(RecordError) -> CompiledQuery {
        let clauses = try Clauses(query, layout: layout, access: access, after: cursor, fetchingOneMore: fetchingOneMore)
        let sortColumns = clauses.keys.map(\.expression).joined(separator: ", ")
        return CompiledQuery(
            sql: "SELECT \(layout.selection), \(sortColumns) FROM \(layout.table)\(clauses.sql)",
            values: clauses.arguments,
            bindings: clauses.bindings,
            layout: layout,
            sortDirections: clauses.keys.map(\.ascending)
        )
    }

    /// The `WHERE … ORDER BY … LIMIT ?` part of a query over `qualifier` (the table, or an
    /// alias in nested queries), the keyset condition of a cursor included, with its arguments.
    /// What `access` may not read of the record type is left out by the condition itself
    /// (``AccessPolicy/readScope(of:)``), at every level of nesting.
    struct Clauses {
        var sql: String
        var arguments: [DatabaseValue]
        /// How each of ``arguments`` is made (``ArgumentBinding``).
        var bindings: [ArgumentBinding]
        var keys: [SortKey]

        init(
            _ query: Query, layout: TableLayout, access: AccessPolicy, qualifier: String? = nil, after cursor: String? = nil,
            fetchingOneMore: Bool = false, extraCondition: String? = nil, ordered: Bool = true
        ) throws(RecordError) {
            if let limit = query.limit, limit < 0 {
                throw RecordError(.invalidArguments, "limit must be zero or more, not \(limit)", recordType: query.recordType)
            }
            var predicate = PredicateCompiler(layout: layout, qualifier: qualifier)
            var conditions = [extraCondition, try predicate.compile(QueryCompiler.readable(query, layout: layout, access: access))].compactMap { $0 }
            var arguments = predicate.arguments
            var bindings = predicate.bindings
            keys = try QueryCompiler.sortKeys(query, layout: layout, qualifier: qualifier)
            if let cursor {
                let position = try PageCursor(decoding: cursor, for: query, keyCount: keys.count)
                let (condition, values) = QueryCompiler.keysetCondition(keys, after: position.keys)
                conditions.append(condition)
                arguments += values
                bindings += values.map(ArgumentBinding.constant)
            }
            conditions.removeAll { $0 == "1" }
            var sql = conditions.isEmpty ? "" : " WHERE " + conditions.joined(separator: " AND ")
            if ordered {
                sql += " ORDER BY " + keys.map { "\($0.expression) \($0.ascending ? "ASC" : "DESC")" }.joined(separator: ", ")
            }
            if let limit = query.limit {
                sql += " LIMIT ?"
                let value = (fetchingOneMore ? limit + 1 : limit).databaseValue
                arguments.append(value)
                bindings.append(.constant(value))
            }
            self.sql = sql
            self.arguments = arguments
            self.bindings = bindings
        }
    }

    /// What of `query` `access` may read: its predicate and the access's read scope, the
    /// predicate compiled for it.
    static func readable(_ query: Query, layout: TableLayout, access: AccessPolicy) -> Predicate {
        query.predicate && access.readScope(of: layout.recordType).predicate
    }

    /// The query's sort keys followed by the recordName tie-break, which runs in the direction
    /// of the last key so that a descending sort is still one backward index scan.
    static func sortKeys(_ query: Query, layout: TableLayout, qualifier: String? = nil) throws(RecordError) -> [SortKey] {
        var keys: [SortKey] = []
        for descriptor in query.sort {
            let resolved = try layout.resolve(descriptor.key, qualifier: qualifier)
            guard resolved.type.isOrdered else {
                throw RecordError(
                    .schemaViolation,
                    "\(query.recordType).\(descriptor.key) is \(resolved.type), which cannot be sorted; sort by a \(FieldType.orderedTypeNames) field",
                    recordType: query.recordType, field: descriptor.key
                )
            }
            keys.append(SortKey(expression: resolved.expression, ascending: descriptor.ascending))
        }
        let recordName = "\(qualifier ?? layout.table).\(SQLName.recordName)"
        if !keys.contains(where: { $0.expression == recordName }) {
            keys.append(SortKey(expression: recordName, ascending: keys.last?.ascending ?? true))
        }
        return keys
    }

    /// `(k1 after v1) OR (k1 = v1 AND k2 after v2) OR …`, NULL-aware: SQLite sorts NULL first
    /// ascending and last descending.
    static func keysetCondition(_ keys: [SortKey], after values: [DatabaseValue]) -> (String, [DatabaseValue]) {
        var alternatives: [String] = []
        var arguments: [DatabaseValue] = []
        for index in keys.indices {
            var parts: [String] = []
            for previous in 0..<index {
                if values[previous].isNull {
                    parts.append("\(keys[previous].expression) IS NULL")
                } else {
                    parts.append("\(keys[previous].expression) = ?")
                    arguments.append(values[previous])
                }
            }
            let key = keys[index]
            switch (key.ascending, values[index].isNull) {
            case (true, true): parts.append("\(key.expression) IS NOT NULL")
            case (true, false):
                parts.append("\(key.expression) > ?")
                arguments.append(values[index])
            case (false, true): parts.append("0")
            case (false, false):
                parts.append("(\(key.expression) < ? OR \(key.expression) IS NULL)")
                arguments.append(values[index])
            }
            alternatives.append("(" + parts.joined(separator: " AND ") + ")")
        }
        var condition = "(" + alternatives.joined(separator: " OR ") + ")"
        if let first = keys.first, first.ascending, !values[0].isNull {
            condition = "\(first.expression) >= ? AND \(condition)"
            arguments.insert(values[0], at: 0)
        }
        return (condition, arguments)
    }
}
