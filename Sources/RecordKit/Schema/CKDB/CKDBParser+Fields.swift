extension CKDBParser {
    /// `name TYPE [QUERYABLE] [SEARCHABLE] [SORTABLE] [NOT EMPTY]`, flags in any order
    /// (`NOT EMPTY` is this engine's extension, ``FieldDefinition/isRequired``).
    static func parseField(_ cursor: inout CKDBCursor, inSystemType: Bool) throws(RecordError) -> (FieldDefinition, CKDBToken) {
        let (name, token) = try cursor.expectName("a field name or GRANT")
        if !(inSystemType && Identifier.isCloudKitSystemName(name)) {
            try checkFieldName(name, at: token, in: cursor)
        }
        let typeToken = cursor.current
        let (type, isEncrypted) = try parseFieldType(&cursor)
        var field = FieldDefinition(name, type, isEncrypted: isEncrypted)
        if let system = field.systemField, type != system.type || isEncrypted {
            throw cursor.error(
                "system field \"\(name)\" has type \(system.type) and can't be declared \(field.ckdbType)",
                at: typeToken
            )
        }
        while true {
            if cursor.isKeyword("NOT") {
                try parseNotEmpty(&cursor, into: &field)
                continue
            }
            guard let entry = IndexFlags.keywords.first(where: { cursor.isKeyword($0.keyword) }) else { break }
            if isEncrypted {
                throw cursor.error(
                    "encrypted field '\(name)' can't be \(entry.keyword): CloudKit doesn't index encrypted values",
                    at: cursor.current
                )
            }
            field.flags.insert(entry.flag)
            cursor.advance()
        }
        guard cursor.isPunctuation(",") || cursor.isPunctuation(")") else {
            throw cursor.unexpected("QUERYABLE, SEARCHABLE, SORTABLE, NOT EMPTY, ',' or ')' after field '\(name)'")
        }
        if let (target, location) = cursor.annotation(onLineOf: token) {
            guard field.holdsReferences else {
                throw RecordError(
                    .invalidArguments,
                    "'// references \(target)' applies to REFERENCE fields; '\(name)' is \(field.type)",
                    location: location
                )
            }
            guard Identifier.isValid(target) else {
                throw RecordError(.invalidArguments, "'\(target)' is not a record type name in '// references \(target)'", location: location)
            }
            field.referencedType = target
        }
        return (field, token)
    }

    /// `NOT EMPTY` after a field's type.
    private static func parseNotEmpty(_ cursor: inout CKDBCursor, into field: inout FieldDefinition) throws(RecordError) {
        let token = cursor.advance()
        try cursor.expectKeyword("EMPTY", expected: "EMPTY after NOT")
        if field.systemField != nil {
            throw cursor.error("system field \"\(field.name)\" always has a value and can't be declared NOT EMPTY", at: token)
        }
        field.isRequired = true
    }

    /// User fields follow the rules of ``Identifier``; `___` names must be one of the six
    /// ``SystemField``s. (CloudKit's system record types may also have `cloudkit.` fields.)
    private static func checkFieldName(_ name: String, at token: CKDBToken, in cursor: CKDBCursor) throws(RecordError) {
        if name.hasPrefix("___") {
            guard SystemField(rawValue: name) == nil else { return }
            let known = SystemField.allCases.map { "\"\($0.rawValue)\"" }.joined(separator: ", ")
            throw cursor.error("'\(name)' is not a system field: the system fields are \(known)", at: token)
        }
        do throws(RecordError) {
            try Identifier.validate(name, as: .field)
        } catch {
            throw cursor.locating(error, at: token)
        }
    }

    private static let expectedType = "a field type (\(FieldType.scalarTypeNames) or LIST<…>)"

    /// A primitive type or `LIST<primitive type>`; `ENCRYPTED` may precede the primitive type.
    private static func parseFieldType(_ cursor: inout CKDBCursor) throws(RecordError) -> (FieldType, isEncrypted: Bool) {
        guard cursor.isKeyword("LIST") else { return try parsePrimitiveType(&cursor, inList: false) }
        cursor.advance()
        try cursor.expectPunctuation("<", expected: "'<' after LIST")
        let (element, isEncrypted) = try parsePrimitiveType(&cursor, inList: true)
        try cursor.expectPunctuation(">", expected: "'>' to close LIST<\(element)")
        return (.list(element), isEncrypted)
    }

    /// `[ENCRYPTED] BYTES|DOUBLE|INT64|LOCATION|STRING|TIMESTAMP`, `ASSET`, `REFERENCE`, or
    /// `NUMBER [PREFERRED AS INT64|DOUBLE]`, as Apple's grammar lists them.
    private static func parsePrimitiveType(_ cursor: inout CKDBCursor, inList: Bool) throws(RecordError) -> (FieldType, isEncrypted: Bool) {
        let isEncrypted = cursor.isKeyword("ENCRYPTED")
        if isEncrypted { cursor.advance() }
        if cursor.isKeyword("LIST") {
            let message =
                inList
                ? "a LIST can't hold lists: its elements have a primitive type such as STRING or INT64"
                : "ENCRYPTED applies to a list's elements: write LIST<ENCRYPTED …>"
            throw cursor.error(message, at: cursor.current)
        }
        let token = cursor.current
        guard let keyword = cursor.keyword, let type = primitiveTypes[keyword] else {
            throw cursor.unexpected(inList ? "a list element type (STRING, INT64, DOUBLE, …)" : expectedType)
        }
        cursor.advance()
        if isEncrypted && !encryptableTypes.contains(type) {
            throw cursor.error(
                "ENCRYPTED applies to BYTES, DOUBLE, INT64, LOCATION, STRING and TIMESTAMP, not \(keyword)",
                at: token
            )
        }
        guard type == .number(preferred: nil), cursor.isKeyword("PREFERRED") else { return (type, isEncrypted) }
        cursor.advance()
        try cursor.expectKeyword("AS", expected: "AS after PREFERRED")
        guard let preference = cursor.keyword.flatMap(FieldType.NumberPreference.init(rawValue:)) else {
            throw cursor.unexpected("INT64 or DOUBLE after NUMBER PREFERRED AS")
        }
        cursor.advance()
        return (.number(preferred: preference), isEncrypted)
    }

    private static let primitiveTypes: [String: FieldType] = [
        "STRING": .string, "INT64": .int64, "DOUBLE": .double, "NUMBER": .number(preferred: nil),
        "TIMESTAMP": .timestamp, "BYTES": .bytes, "REFERENCE": .reference, "ASSET": .asset,
        "LOCATION": .location,
    ]

    /// The types CloudKit can encrypt (`ENCRYPTED` in Apple's grammar).
    private static let encryptableTypes: Set<FieldType> = [.bytes, .double, .int64, .location, .string, .timestamp]
}
