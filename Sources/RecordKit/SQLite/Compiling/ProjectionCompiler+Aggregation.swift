internal import GRDB

/// Aggregates (``Aggregation``) compiled into the JSON-building SQL: one `json_object` of
/// SQL's aggregate functions over the rows a query selects.
extension ProjectionCompiler {
    /// `SELECT json_object(…) FROM <table> AS <alias> WHERE …`: the aggregates of the records
    /// `query` selects (its sort and limit are not used), with the condition `link` makes of
    /// the table's alias ANDed.
    mutating func aggregateSelect(_ aggregation: Aggregation, query: Query, link: ((String) -> String)? = nil) throws(RecordError) -> String {
        let layout = try snapshot.layout(query.recordType)
        let alias = nextAlias()
        let object = try aggregateObject(aggregation, layout: layout, alias: alias)
        let clauses = try QueryCompiler.Clauses(query, layout: layout, access: access, qualifier: alias, extraCondition: link?(alias), ordered: false)
        append(clauses.arguments)
        return "SELECT \(object) FROM \(layout.table) AS \(alias)\(clauses.sql)"
    }

    /// The aggregates of the records of `recordType` whose `field` points at `recordName` and
    /// match `predicate`, as a JSON object (a correlated subquery).
    mutating func referrersAggregate(
        _ recordType: String, field: String, of recordName: String, predicate: Predicate, _ aggregation: Aggregation
    ) throws(RecordError) -> String {
        let layout = try snapshot.layout(recordType)
        let slot = try layout.slot(field)
        guard slot.field.holdsReferences else {
            throw RecordError(.schemaViolation, "\(recordType).\(field) is \(slot.field.type), not a REFERENCE", recordType: recordType, field: field)
        }
        let isList = slot.field.type != .reference
        let select = try aggregateSelect(aggregation, query: Query(recordType, predicate: predicate)) { alias in
            let column = "\(alias).\(SQLName.column(field))"
            return isList
                ? "EXISTS (SELECT 1 FROM json_each(\(column)) AS link WHERE link.value ->> '$.recordName' = \(recordName))"
                : "\(column) = \(recordName)"
        }
        // A subquery's value loses its JSON subtype: json(…) gives it back.
        return "json((\(select)))"
    }

    /// `json_object(?, count(*), ?, json_object(?, sum(t0.c_number)), …)` over the rows of
    /// `layout`'s table named `alias`.
    private mutating func aggregateObject(_ aggregation: Aggregation, layout: TableLayout, alias: String) throws(RecordError) -> String {
        var parts: [String] = []
        for member in aggregation.members {
            let key = bind(member.key.databaseValue)
            let value: String
            switch member.value {
            case .count:
                value = "count(*)"
            case .constant(let text):
                value = bind(text.databaseValue)
            case .function(let function, let fields):
                var inner: [String] = []
                for field in fields {
                    let fieldKey = bind(field.key.databaseValue)
                    switch field.value {
                    case .constant(let text):
                        inner.append("\(fieldKey), \(bind(text.databaseValue))")
                    case .field(let name):
                        inner.append(
                            "\(fieldKey), \(try aggregate(function, of: try layout.slot(name).field, column: "\(alias).\(SQLName.column(name))", in: layout.recordType.name))"
                        )
                    }
                }
                value = "json_object(\(inner.joined(separator: ", ")))"
            }
            parts.append("\(key), \(value)")
        }
        return "json_object(\(parts.joined(separator: ", ")))"
    }

    /// `function` over `column`, in the JSON encoding of its result.
    private func aggregate(_ function: Aggregation.Function, of field: FieldDefinition, column: String, in recordType: String) throws(RecordError) -> String {
        guard function.applies(to: field.type) else {
            throw RecordError(
                .schemaViolation,
                "\(recordType).\(field.name) is \(field.type); \(function.rawValue) takes INT64, DOUBLE and NUMBER fields\(function == .sum ? "" : " and TIMESTAMP fields")",
                recordType: recordType, field: field.name
            )
        }
        let call = "\(function.rawValue)(\(column))"
        switch (function, field.type) {
        case (.avg, .timestamp): return JSONEncodingSQL.timestamp("round(\(call))")
        case (_, .timestamp): return JSONEncodingSQL.timestamp(call)
        case (.sum, .double), (.sum, .number(preferred: nil)), (.sum, .number(preferred: .double)), (.avg, _):
            return JSONEncodingSQL.double("shop_finite(\(call))")
        case (_, .double), (_, .number(preferred: nil)), (_, .number(preferred: .double)): return JSONEncodingSQL.double(call)
        default: return call
        }
    }
}
