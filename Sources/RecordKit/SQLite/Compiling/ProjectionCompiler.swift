internal import GRDB

/// Compiles a ``Projection`` into a SQLite expression building one JSON object per record, with
/// nested references and referring records. Pure: schema in, SQL out.
///
/// The record a REFERENCE field points at is read through a `LEFT JOIN` of its table on its
/// recordName, which is unique (at most one row joins, and none when the reference dangles);
/// a LIST<REFERENCE>, an untyped reference projected for several types, or a reference past
/// ``maximumJoins`` is looked up by a correlated subquery per record, and so are referring
/// records. Keys (GraphQL aliases are user text) and constants are bound, never spliced; field
/// names are resolved against the schema first. Each table gets its own alias (`t0`, `t1`, …)
/// so a record type may appear at several depths. Values coming out of subqueries are wrapped
/// in `json(…)`, because SQLite's JSON subtype does not survive a subquery boundary; arrays of
/// records are built outside the subquery that selects them (``array(of:table:alias:clauses:)``).
struct ProjectionCompiler {
    let snapshot: SchemaSnapshot
    /// Who reads: referenced records it may not read are `null`, referring ones left out.
    let access: AccessPolicy
    /// Bound values, in the order their placeholders appear in the SQL built so far.
    private(set) var arguments: [DatabaseValue] = []
    private var aliasCount = 0
    /// The most tables joined to one projected table: SQLite joins at most 64 tables in one
    /// `FROM`; references past this are looked up by a subquery per record instead.
    static let maximumJoins = 48
    /// The `LEFT JOIN`s of the table whose rows are being projected.
    private var joins: [String] = []
    /// The columns read from the rows of each alias, qualified, in the order first read.
    private var columnsRead: [String: [String]] = [:]

    /// A projection compiled over the rows of one table (``row(_:layout:alias:)``).
    struct CompiledRow {
        /// `json_object(…)`.
        var object: String
        /// The `LEFT JOIN`s of the referenced records it reads, to follow `FROM <table> AS
        /// <alias>`: empty, or starting with a space.
        var joins: String
        /// The columns of the table it reads, qualified by the alias; the recordName always.
        var columns: [String]
    }

    init(snapshot: SchemaSnapshot, access: AccessPolicy) {
        self.snapshot = snapshot
        self.access = access
    }

    /// A fresh table alias.
    mutating func nextAlias() -> String {
        defer { aliasCount += 1 }
        return "t\(aliasCount)"
    }

    mutating func bind(_ value: DatabaseValue) -> String {
        arguments.append(value)
        return "?"
    }

    mutating func append(_ values: [DatabaseValue]) {
        arguments += values
    }

    /// The JSON object built by `projection` over each row of `layout`'s table named `alias`.
    mutating func row(_ projection: Projection, layout: TableLayout, alias: String) throws(RecordError) -> CompiledRow {
        let outer = joins
        joins = []
        defer { joins = outer }
        _ = read(SQLName.recordName, of: alias)
        let object = try object(projection, layout: layout, alias: alias)
        return CompiledRow(object: object, joins: joins.joined(), columns: columnsRead[alias] ?? [])
    }

    /// `SELECT json_group_array(<object>) …`: the JSON array of `row` over the rows of `table`
    /// (named `alias`) that `clauses` (`WHERE … ORDER BY … LIMIT ?`) select, in their order.
    ///
    /// The objects are built outside the subquery that selects the rows, so that they reach
    /// json_group_array as JSON: built inside it, they would lose their JSON subtype at its
    /// boundary and `json(…)` would have to parse each one again. The subquery selects only the
    /// columns the objects read, so an index covering them is enough.
    static func array(of row: CompiledRow, table: String, alias: String, clauses: String) -> String {
        "SELECT json_group_array(\(row.object)) FROM (SELECT \(row.columns.joined(separator: ", ")) FROM \(table) AS \(alias)\(clauses)) AS \(alias)\(row.joins)"
    }

    /// `alias.column`, noted among the columns read from `alias`.
    private mutating func read(_ column: String, of alias: String) -> String {
        let qualified = "\(alias).\(column)"
        if columnsRead[alias]?.contains(qualified) != true {
            columnsRead[alias, default: []].append(qualified)
        }
        return qualified
    }

    /// `json_object(?, <value>, …)` over the row of `layout` named `alias`; the tables it joins
    /// are added to `joins`.
    private mutating func object(_ projection: Projection, layout: TableLayout, alias: String) throws(RecordError) -> String {
        var parts: [String] = []
        for member in projection.members {
            let key = bind(member.key.databaseValue)
            parts.append("\(key), \(try value(member.value, layout: layout, alias: alias))")
        }
        return "json_object(\(parts.joined(separator: ", ")))"
    }

    private mutating func value(_ value: Projection.MemberValue, layout: TableLayout, alias: String) throws(RecordError) -> String {
        switch value {
        case .recordName: return read(SQLName.recordName, of: alias)
        case .recordType: return bind(layout.recordType.name.databaseValue)
        case .createdAt: return JSONEncodingSQL.timestamp(read(SQLName.createdAt, of: alias))
        case .modifiedAt: return JSONEncodingSQL.timestamp(read(SQLName.modifiedAt, of: alias))
        case .changeTag: return read(SQLName.changeTag, of: alias)
        case .constant(let text): return bind(text.databaseValue)
        case .field(let name):
            let slot = try layout.slot(name)
            return JSONEncodingSQL.value(read(SQLName.column(name), of: alias), type: slot.field.type)
        case .parts(let name, let parts):
            let slot = try layout.slot(name)
            return try self.parts(parts, column: read(SQLName.column(name), of: alias), field: slot.field, in: layout.recordType.name)
        case .reference(let name, let projections):
            let slot = try layout.slot(name)
            return try reference(slot.field, column: read(SQLName.column(name), of: alias), projections: projections, in: layout.recordType.name)
        case .referrers(let type, let field, let predicate, let sort, let limit, let projection):
            return try referrers(type, field: field, of: read(SQLName.recordName, of: alias), predicate: predicate, sort: sort, limit: limit, projection)
        case .aggregate(let type, let field, let predicate, let aggregation):
            return try referrersAggregate(type, field: field, of: read(SQLName.recordName, of: alias), predicate: predicate, aggregation)
        }
    }

    /// Chosen members of a LOCATION or ASSET value, or of each element of a list of them.
    private mutating func parts(_ parts: [Projection.Part], column: String, field: FieldDefinition, in recordType: String) throws(RecordError) -> String {
        let base = field.type.elementType ?? field.type
        guard base == .location || base == .asset else {
            throw RecordError(
                .schemaViolation, "\(recordType).\(field.name) is \(field.type); only LOCATION and ASSET values have parts", recordType: recordType,
                field: field.name)
        }
        func object(_ value: String, compiler: inout ProjectionCompiler) throws(RecordError) -> String {
            var members: [String] = []
            for part in parts {
                let key = compiler.bind(part.key.databaseValue)
                let member: String
                switch (part.value, base) {
                case (.latitude, .location): member = JSONEncodingSQL.double("(\(value) ->> '$[0]')")
                case (.longitude, .location): member = JSONEncodingSQL.double("(\(value) ->> '$[1]')")
                case (.locationDetail(let detail), .location):
                    let stored = "(\(value) ->> \(compiler.bind("$[2].\(detail.rawValue)".databaseValue)))"
                    member = detail.isTime ? JSONEncodingSQL.timestamp(stored) : JSONEncodingSQL.double(stored)
                case (.size, .asset): member = "(\(value) ->> '$.size')"
                case (.sha256, .asset): member = "(\(value) ->> '$.sha256')"
                case (.constant(let text), _): member = compiler.bind(text.databaseValue)
                default:
                    throw RecordError(
                        .schemaViolation, "\(recordType).\(field.name) is \(field.type) and has no \(part.value)", recordType: recordType, field: field.name)
                }
                members.append("\(key), \(member)")
            }
            return "json_object(\(members.joined(separator: ", ")))"
        }
        guard field.type.elementType != nil else {
            return "CASE WHEN \(column) IS NULL THEN NULL ELSE \(try object(column, compiler: &self)) END"
        }
        let element = "element.value"
        return
            "CASE WHEN \(column) IS NULL THEN NULL ELSE (SELECT json_group_array(json(\(try object(element, compiler: &self)))) FROM json_each(\(column)) AS element) END"
    }

    /// The referenced record projected by its type (`coalesce` over the possible types), for a
    /// REFERENCE; an array of them for a LIST<REFERENCE>.
    private mutating func reference(
        _ field: FieldDefinition, column: String, projections: [String: Projection], in recordType: String
    ) throws(RecordError) -> String {
        guard field.holdsReferences else {
            throw RecordError(.schemaViolation, "\(recordType).\(field.name) is \(field.type), not a REFERENCE", recordType: recordType, field: field.name)
        }
        let isList = field.type.elementType != nil
        let target = isList ? "(element.value ->> '$.recordName')" : column
        let targets = projections.sorted(by: { $0.key < $1.key })
        for typeName in targets.map(\.key) {
            if let declared = field.referencedType, declared != typeName {
                throw RecordError(
                    .schemaViolation, "\(recordType).\(field.name) references \(declared), not \(typeName)", recordType: recordType, field: field.name)
            }
        }
        if !isList, targets.count == 1, joins.count < Self.maximumJoins, let (typeName, projection) = targets.first {
            let layout = try snapshot.layout(typeName)
            let alias = nextAlias()
            let recordName = "\(alias).\(SQLName.recordName)"
            joins.append(" LEFT JOIN \(layout.table) AS \(alias) ON \(recordName) = \(column)")
            // The condition is bound before the object: its placeholders come first in the text.
            let unreadable = try readCondition(layout, alias: alias).map { " OR NOT \($0)" } ?? ""
            return "CASE WHEN \(recordName) IS NULL\(unreadable) THEN NULL ELSE \(try object(projection, layout: layout, alias: alias)) END"
        }
        var lookups: [String] = []
        for (typeName, projection) in targets {
            let layout = try snapshot.layout(typeName)
            let alias = nextAlias()
            let row = try row(projection, layout: layout, alias: alias)
            let readable = try readCondition(layout, alias: alias).map { " AND \($0)" } ?? ""
            lookups.append("(SELECT \(row.object) FROM \(layout.table) AS \(alias)\(row.joins) WHERE \(alias).\(SQLName.recordName) = \(target)\(readable))")
        }
        let resolved = lookups.isEmpty ? "NULL" : lookups.count == 1 ? "json(\(lookups[0]))" : "json(coalesce(\(lookups.joined(separator: ", "))))"
        guard isList else { return resolved }
        return "CASE WHEN \(column) IS NULL THEN NULL ELSE (SELECT json_group_array(\(resolved)) FROM json_each(\(column)) AS element) END"
    }

    /// The records of `recordType` whose `field` points at `recordName`, as a JSON array.
    private mutating func referrers(
        _ recordType: String, field: String, of recordName: String, predicate: Predicate, sort: [SortDescriptor], limit: Int?, _ projection: Projection
    ) throws(RecordError) -> String {
        let layout = try snapshot.layout(recordType)
        let slot = try layout.slot(field)
        guard slot.field.holdsReferences else {
            throw RecordError(.schemaViolation, "\(recordType).\(field) is \(slot.field.type), not a REFERENCE", recordType: recordType, field: field)
        }
        let alias = nextAlias()
        let row = try row(projection, layout: layout, alias: alias)
        let column = "\(alias).\(SQLName.column(field))"
        let link =
            slot.field.type == .reference
            ? "\(column) = \(recordName)"
            : "EXISTS (SELECT 1 FROM json_each(\(column)) AS link WHERE link.value ->> '$.recordName' = \(recordName))"
        let query = Query(recordType, predicate: predicate, sort: sort, limit: limit)
        let clauses = try QueryCompiler.Clauses(query, layout: layout, access: access, qualifier: alias, extraCondition: link)
        append(clauses.arguments)
        return "(\(Self.array(of: row, table: layout.table, alias: alias, clauses: clauses.sql)))"
    }
}

extension ProjectionCompiler {
    /// The condition under which ``access`` may read a row of `layout` named `alias`, its values
    /// bound now; `nil` when it may read every row.
    fileprivate mutating func readCondition(_ layout: TableLayout, alias: String) throws(RecordError) -> String? {
        let scope = access.readScope(of: layout.recordType)
        guard scope != .all else { return nil }
        var predicate = PredicateCompiler(layout: layout, qualifier: alias)
        let condition = try predicate.compile(scope.predicate)
        append(predicate.arguments)
        return condition
    }
}

/// SQL expressions rendering stored values in the JSON encodings of ``Projection``.
enum JSONEncodingSQL {
    /// ISO-8601 with milliseconds, from integer milliseconds.
    static func timestamp(_ column: String) -> String {
        "strftime('%Y-%m-%dT%H:%M:%fZ', \(column) / 1000.0, 'unixepoch')"
    }

    /// A number in Swift's shortest round-trip form (SQLite's own keeps 15 digits).
    static func double(_ expression: String) -> String {
        "json(shop_json_number(\(expression)))"
    }

    static func value(_ column: String, type: FieldType) -> String {
        switch type {
        case .string, .int64, .reference: column
        case .double, .number: double(column)
        case .timestamp: timestamp(column)
        case .bytes: "shop_base64(\(column))"
        case .location:
            // The members beside the coordinates, when stored (`$[2]`), after them.
            "CASE WHEN \(column) IS NULL THEN NULL ELSE json_patch(json_object('latitude', \(double("\(column) ->> '$[0]'")), "
                + "'longitude', \(double("\(column) ->> '$[1]'"))), coalesce(\(column) -> '$[2]', '{}')) END"
        case .asset:
            "CASE WHEN \(column) IS NULL THEN NULL ELSE json_object('size', \(column) ->> '$.size', 'sha256', \(column) ->> '$.sha256') END"
        case .list(let element):
            switch element {
            case .string, .int64, .double, .number, .bytes: "json(\(column))"
            default:
                "CASE WHEN \(column) IS NULL THEN NULL ELSE (SELECT json_group_array(\(elementValue(element))) FROM json_each(\(column)) AS element) END"
            }
        }
    }

    /// An element of a stored list, as `element.value` from `json_each`.
    private static func elementValue(_ element: FieldType) -> String {
        switch element {
        case .timestamp: timestamp("element.value")
        case .reference: "element.value ->> '$.recordName'"
        default: value("element.value", type: element)
        }
    }
}
