internal import GRDB

/// The storage shape of one record type at one schema version: which columns to select and
/// where each field's value sits in a fetched row. Built once per schema version, shared by
/// reference (it is on every record's path, so it is not copied field by field).
final class TableLayout: Sendable {
    /// Where a field lives in a row selected with ``selection``.
    struct Slot: Sendable {
        var field: FieldDefinition
        var column: Int
        /// The action column's position, for REFERENCE fields.
        var actionColumn: Int?
    }

    let recordType: RecordType
    let table: String
    /// `_rowid, _recordName, _createdAt, _modifiedAt, _changeTag, <fields…>`, qualified by the table.
    let selection: String
    let slots: [Slot]
    /// The user field slots by name.
    let slotsByName: [String: Slot]
    /// The slots of the ASSET and LIST<ASSET> fields (``AssetColumns``).
    let assetSlots: [Slot]
    /// The selected columns' names (unqualified), by position.
    let columnNames: [String]
    /// Number of selected columns.
    var columnCount: Int { columnNames.count }
    /// Positions (in ``selection``) of the user field columns written by saves, action columns included.
    let fieldColumns: [Int]
    /// `INSERT` of a new record: system columns then ``fieldColumns``.
    let insertSQL: String
    /// `UPDATE` of every field column, `_modifiedAt` and `_changeTag` of the row `_rowid = ?`.
    let replaceSQL: String
    /// `SELECT <selection> … WHERE _rowid = ?`.
    let fetchByRowSQL: String

    init(_ recordType: RecordType) {
        self.recordType = recordType
        let table = SQLName.table(recordType.name)
        self.table = table
        var columns = [SQLName.rowID, SQLName.recordName, SQLName.createdAt, SQLName.modifiedAt, SQLName.changeTag]
        var slots: [Slot] = []
        for field in recordType.userFields {
            let column = columns.count
            columns.append(SQLName.column(field.name))
            var actionColumn: Int?
            if field.type == .reference {
                actionColumn = columns.count
                columns.append(SQLName.actionColumn(field.name))
            }
            slots.append(Slot(field: field, column: column, actionColumn: actionColumn))
        }
        self.slots = slots
        slotsByName = Dictionary(uniqueKeysWithValues: slots.map { ($0.field.name, $0) })
        assetSlots = slots.filter { $0.field.type == .asset || $0.field.type == .list(.asset) }
        selection = columns.map { "\(table).\($0)" }.joined(separator: ", ")
        columnNames = columns
        fieldColumns = Array(5..<columns.count)
        let fieldNames = fieldColumns.map { columns[$0] }
        let inserted = [SQLName.recordName, SQLName.createdAt, SQLName.modifiedAt, SQLName.changeTag] + fieldNames
        insertSQL = "INSERT INTO \(table)(\(inserted.joined(separator: ", "))) VALUES (\(Array(repeating: "?", count: inserted.count).joined(separator: ", ")))"
        let assignments = (fieldNames + [SQLName.modifiedAt, SQLName.changeTag]).map { "\($0) = ?" }.joined(separator: ", ")
        replaceSQL = "UPDATE \(table) SET \(assignments) WHERE \(SQLName.rowID) = ?"
        fetchByRowSQL = "SELECT \(selection) FROM \(table) WHERE \(SQLName.rowID) = ?"
    }

    /// The slot of user field `name`, or `schemaViolation` saying how to add the field.
    func slot(_ name: String) throws(RecordError) -> Slot {
        if let slot = slotsByName[name] { return slot }
        throw RecordError(
            .schemaViolation,
            "\(recordType.name) has no field '\(name)'",
            recordType: recordType.name, field: name,
            reason: .unknownField, remedy: .addField(recordType: recordType.name, field: name, type: nil)
        )
    }

    /// The record in `row`, selected with ``selection`` starting at column `offset`.
    func record(from row: Row, offset: Int = 0) -> Record {
        // Sized at creation: `reserveCapacity` on a dictionary is not specialized here and
        // instantiated generic metadata for every record.
        var record = Record(recordType.name, recordName: row[offset + 1], fields: [String: Value](minimumCapacity: slots.count))
        record.createdAt = Timestamp.date(milliseconds: row[offset + 2])
        record.modifiedAt = Timestamp.date(milliseconds: row[offset + 3])
        record.changeTag = row[offset + 4]
        for slot in slots {
            let action = slot.actionColumn.map { offset + $0 }
            if let value = ValueEncoding.decode(row, column: offset + slot.column, actionColumn: action, type: slot.field.type) {
                record.fields[slot.field.name] = value
            }
        }
        return record
    }
}

/// The schema at one version with the layouts derived from it.
final class SchemaSnapshot: Sendable {
    /// A REFERENCE or LIST<REFERENCE> field, which deletes may cascade through.
    struct ReferringField: Sendable {
        var recordType: String
        var field: String
        var isList: Bool
        /// The record type the field declares it points at; `nil` when untyped.
        var referencedType: String?
    }

    let version: Int
    let schema: Schema
    let layouts: [String: TableLayout]
    /// The layouts of every stored record type, in name order.
    let storedLayouts: [TableLayout]
    let referringFields: [ReferringField]
    /// One statement finding a recordName in every stored table: rows of (index in
    /// ``storedLayouts``, `_rowid`, `_changeTag`, `_createdAt`); recordNames are unique across
    /// types, so there is at most one row. `nil` while no record type is stored.
    let locateAnywhereSQL: String?
    /// Per record type, the same over every other stored table (absent when there is none).
    let locateOutsideSQL: [String: String]

    /// First pages of queries compiled at this version, by the query's shape (its values left
    /// out, ``Predicate/parameterized(into:)``) and whether one more row is fetched: the REPL
    /// looks a list up by name command after command, each time another name; an app runs the
    /// same queries again and again with new values. A query found here is bound with its own
    /// values (``CompiledQuery/rebound(to:)``) instead of being compiled. Later pages are not
    /// kept (each has a new cursor), nor shapes with non-ASCII names (equal Swift strings may
    /// differ in bytes; see ``Query/hasOnlyASCIIText``).
    private let compiledQueries = BoundedCache<CompiledQueryKey, CompiledQuery>(capacity: 256)

    private struct CompiledQueryKey: Hashable, Sendable {
        /// The query with its readable predicate, the values replaced by placeholders.
        var shape: Query
        var access: AccessPolicy
        var fetchingOneMore: Bool
    }

    /// How many query shapes are kept compiled (tests check what is shared).
    var compiledQueryCount: Int { compiledQueries.count }

    /// JSON queries compiled at this version (``RecordTransaction/compileJSON(_:projection:)``),
    /// under the same rules: a query language asks the same ones again and again.
    private let compiledJSONQueries = BoundedCache<CompiledJSONKey, CompiledJSONQuery>(capacity: 256)

    private struct CompiledJSONKey: Hashable, Sendable {
        var query: Query
        var projection: Projection
        var access: AccessPolicy
        /// Whether the statement reads the one record of `query`'s type whose recordName is
        /// bound after the compiled arguments, not `query`'s records.
        var readsOneRecordByName: Bool
    }

    init(version: Int, schema: Schema) {
        self.version = version
        self.schema = schema
        let stored = schema.recordTypes.filter { !$0.isCloudKitSystemType }
        storedLayouts = stored.map(TableLayout.init)
        let probes = storedLayouts.enumerated().map { index, layout in
            "SELECT \(index), _rowid, _changeTag, _createdAt FROM \(layout.table) WHERE _recordName = ?1"
        }
        locateAnywhereSQL = probes.isEmpty ? nil : probes.joined(separator: " UNION ALL ")
        var locateOutsideSQL: [String: String] = [:]
        for (index, layout) in storedLayouts.enumerated() where probes.count > 1 {
            locateOutsideSQL[layout.recordType.name] = probes.enumerated().filter { $0.offset != index }.map(\.element).joined(separator: " UNION ALL ")
        }
        self.locateOutsideSQL = locateOutsideSQL
        layouts = Dictionary(uniqueKeysWithValues: storedLayouts.map { ($0.recordType.name, $0) })
        referringFields = stored.flatMap { type in
            type.userFields.compactMap { field in
                switch field.type {
                case .reference: ReferringField(recordType: type.name, field: field.name, isList: false, referencedType: field.referencedType)
                case .list(.reference): ReferringField(recordType: type.name, field: field.name, isList: true, referencedType: field.referencedType)
                default: nil
                }
            }
        }
    }

    /// `query` compiled for this schema and `access` (``QueryCompiler/compile(_:layout:access:after:fetchingOneMore:)``),
    /// from the cache when it is a first page compiled before.
    func compiled(_ query: Query, access: AccessPolicy, after cursor: String? = nil, fetchingOneMore: Bool = false) throws(RecordError) -> CompiledQuery {
        let layout = try layout(query.recordType)
        guard cursor == nil else {
            return try QueryCompiler.compile(query, layout: layout, access: access, after: cursor, fetchingOneMore: fetchingOneMore)
        }
        // The statement is compiled for the readable predicate (the access's read scope added),
        // so its shape and its values are taken from that.
        var parameters: [QueryParameter] = []
        var shape = query
        shape.predicate = QueryCompiler.readable(query, layout: layout, access: access).parameterized(into: &parameters)
        guard shape.hasOnlyASCIIText else {
            return try QueryCompiler.compile(query, layout: layout, access: access, fetchingOneMore: fetchingOneMore)
        }
        let key = CompiledQueryKey(shape: shape, access: access, fetchingOneMore: fetchingOneMore)
        if let compiled = compiledQueries.value(for: key) { return try compiled.rebound(to: parameters) }
        let compiled = try QueryCompiler.compile(query, layout: layout, access: access, fetchingOneMore: fetchingOneMore)
        compiledQueries.store(compiled, for: key)
        return compiled
    }

    /// `query` projected by `projection` for `access` — or, `readingOneRecordByName`, the one
    /// record of `query`'s type whose recordName is bound after the compiled arguments
    /// (``RecordTransaction/json(recordName:recordType:projection:)``) — compiled by `compile`,
    /// or from the cache when it was compiled before at this version (ASCII text only, as for
    /// ``compiled(_:after:fetchingOneMore:)``).
    func compiledJSON(
        _ query: Query, projection: Projection, access: AccessPolicy, readingOneRecordByName: Bool = false,
        compile: () throws -> CompiledJSONQuery
    ) throws -> CompiledJSONQuery {
        guard query.hasOnlyASCIIText, projection.hasOnlyASCIIText else { return try compile() }
        let key = CompiledJSONKey(query: query, projection: projection, access: access, readsOneRecordByName: readingOneRecordByName)
        if let compiled = compiledJSONQueries.value(for: key) { return compiled }
        let compiled = try compile()
        compiledJSONQueries.store(compiled, for: key)
        return compiled
    }

    /// The layout of `recordType`, or `schemaViolation` saying how to add the type.
    func layout(_ recordType: String) throws(RecordError) -> TableLayout {
        if let layout = layouts[recordType] { return layout }
        let type = try schema.requireRecordType(recordType)
        if type.isCloudKitSystemType {
            throw RecordError(
                .schemaViolation,
                "\(recordType) is one of CloudKit's own record types: it is kept in the schema for export, but stores no records here",
                recordType: recordType
            )
        }
        throw RecordError(.internalError, "no storage layout for \(recordType)", recordType: recordType)
    }
}
