internal import GRDB

/// A predicate or sort key resolved against a record type: the SQL expression it reads and
/// the type of its values.
struct ResolvedKey {
    var name: String
    /// Qualified column expression, e.g. `"Items"."list"`.
    var expression: String
    var type: FieldType

    /// System keys accepted in predicates and sorts, with CloudKit's aliases.
    static func system(_ key: String, table: String) -> ResolvedKey? {
        switch key {
        case "recordName", "recordID", "___recordID":
            ResolvedKey(name: key, expression: "\(table).\(SQLName.recordName)", type: .reference)
        case "createdAt", "creationDate", "___createTime":
            ResolvedKey(name: key, expression: "\(table).\(SQLName.createdAt)", type: .timestamp)
        case "modifiedAt", "modificationDate", "___modTime":
            ResolvedKey(name: key, expression: "\(table).\(SQLName.modifiedAt)", type: .timestamp)
        case "___createdBy":
            ResolvedKey(name: key, expression: RecordAuthors.expression("createdBy", recordName: "\(table).\(SQLName.recordName)"), type: .reference)
        case "___modifiedBy":
            ResolvedKey(name: key, expression: RecordAuthors.expression("modifiedBy", recordName: "\(table).\(SQLName.recordName)"), type: .reference)
        default: nil
        }
    }
}

extension Schema {
    /// Checks that each sort key of `query` is a field of its record type or a system key
    /// (`recordName`, `createdAt`…), throwing what the storage would (`schemaViolation`, with the
    /// remedy that adds the field): a client of a server checks before it sends the query.
    public func checkSortKeys(of query: Query) throws(RecordError) {
        for key in query.sort where ResolvedKey.system(key.key, table: "") == nil {
            _ = try requireField(key.key, of: query.recordType)
        }
    }
}

extension TableLayout {
    /// Resolves `key` (a user field or a system key) as read through `qualifier` (the table
    /// name, or an alias in nested queries), or throws `schemaViolation` naming it.
    func resolve(_ key: String, qualifier: String? = nil) throws(RecordError) -> ResolvedKey {
        let qualifier = qualifier ?? table
        if let system = ResolvedKey.system(key, table: qualifier) { return system }
        let slot = try slot(key)
        return ResolvedKey(name: key, expression: "\(qualifier).\(SQLName.column(key))", type: slot.field.type)
    }
}

/// Turning untyped predicate literals into the values stored for a key's type.
enum LiteralBinding {
    /// The bound value `literal` compares with on a key of `type`, or `schemaViolation` when
    /// the literal cannot be a value of that type.
    static func bind(_ literal: Predicate.Literal, to key: ResolvedKey, type: FieldType, recordType: String) throws(RecordError) -> DatabaseValue {
        if let bound = try value(literal, type: type, key: key.name, recordType: recordType) { return bound }
        throw RecordError(
            .schemaViolation,
            "\(recordType).\(key.name) is \(type); \(literal) is not a \(type) value",
            recordType: recordType, field: key.name
        )
    }

    private static func value(_ literal: Predicate.Literal, type: FieldType, key: String, recordType: String) throws(RecordError) -> DatabaseValue? {
        switch (type, literal) {
        case (.string, .string(let text)), (.reference, .string(let text)):
            try ValueEncoding.checkNoNUL(text, field: key, in: recordType)
            return text.databaseValue
        case (.reference, .value(.reference(let reference))): return reference.recordName.databaseValue
        case (.int64, .integer(let number)), (.double, .integer(let number)), (.number, .integer(let number)):
            return number.databaseValue
        case (.int64, .double(let number)), (.double, .double(let number)), (.number, .double(let number)):
            return number.databaseValue
        case (.int64, .bool(let flag)), (.number, .bool(let flag)): return (flag ? 1 : 0).databaseValue
        case (.timestamp, .string(let text)):
            guard let date = Timestamp.parse(text) else {
                throw RecordError(
                    .invalidArguments,
                    "\(recordType).\(key) is a TIMESTAMP; '\(text)' is not an ISO-8601 date such as 2026-11-21T09:30:00Z",
                    recordType: recordType, field: key
                )
            }
            return Timestamp.milliseconds(date).databaseValue
        case (_, .value(let value)):
            var assets: [Asset] = []
            let field = FieldDefinition(key, type)
            return try ValueEncoding.scalar(value, type: type, field: field, in: recordType, assets: &assets)
        default: return nil
        }
    }
}
