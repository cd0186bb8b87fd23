/// Reads CloudKit's schema language (CKDB), the syntax `cktool export-schema` writes
/// (CloudKit's schema language, as the README describes it):
///
/// ```
/// DEFINE SCHEMA
///     CREATE ROLE Moderator;
///     RECORD TYPE Items (
///         "___recordID"   REFERENCE QUERYABLE,
///         name            STRING QUERYABLE SEARCHABLE SORTABLE,
///         tags            LIST<ENCRYPTED STRING>,
///         GRANT READ, WRITE TO "_creator",
///         GRANT WRITE TO Moderator
///     );
/// ```
///
/// Keywords are case-insensitive; names may be quoted, so keywords can be names (`"GRANT"`).
/// Fields and grants may come in any order and a trailing comma before `)` is accepted, as in
/// Apple's grammar, where every item of a record type is optional. Comments (`//`, `--`,
/// `/* */`) may appear anywhere.
///
/// What the model can't hold is refused with an `invalidArguments` error that points at the
/// offending token (``RecordError/location``) and says what was expected: names that aren't
/// ``Identifier``s, `___` names other than the six ``SystemField``s, a system field declared
/// with another type, names declared twice (ignoring case), `ENCRYPTED` on a type CloudKit
/// can't encrypt or on an indexed field, lists of lists, unknown system roles.
public enum CKDBParser {
    /// Parses a whole CKDB text into a ``Schema``.
    public static func parse(_ text: String) throws(RecordError) -> Schema {
        var declarations = CKDBDeclarations()
        return try parse(text, recording: &declarations)
    }

    /// Where `text` declares the field `field` of `recordType`, or the record type itself when
    /// there is no field or the type does not declare it (names compared ignoring case); `nil`
    /// when it declares neither, or does not parse. Locates a refusal that names what the file
    /// declares, such as a field whose type differs from the stored one's.
    public static func location(ofRecordType recordType: String, field: String? = nil, in text: String) -> SourceLocation? {
        var declarations = CKDBDeclarations()
        guard (try? parse(text, recording: &declarations)) != nil, let token = declarations.token(ofRecordType: recordType, field: field) else {
            return nil
        }
        return SourceLocation(offset: token.start, in: text)
    }

    /// Parses `text`, keeping in `declarations` where each record type and field is declared.
    private static func parse(_ text: String, recording declarations: inout CKDBDeclarations) throws(RecordError) -> Schema {
        var cursor = try CKDBCursor(text: text)
        try cursor.expectKeyword("DEFINE", expected: "DEFINE SCHEMA")
        try cursor.expectKeyword("SCHEMA", expected: "SCHEMA after DEFINE")
        var roles: [String] = []
        var recordTypes: [RecordType] = []
        var roleNames = CKDBNameSet(of: "role")
        while !cursor.isAtEnd {
            if cursor.isKeyword("CREATE") {
                let (role, token) = try parseRole(&cursor)
                try roleNames.insert(role, at: token, in: cursor)
                roles.append(role)
            } else if cursor.isKeyword("RECORD") {
                let (recordType, token) = try parseRecordType(&cursor, recording: &declarations)
                try declarations.recordTypes.insert(recordType.name, at: token, in: cursor)
                recordTypes.append(recordType)
            } else {
                throw cursor.unexpected("CREATE ROLE or RECORD TYPE")
            }
        }
        return Schema(roles: roles, recordTypes: recordTypes)
    }

    /// `CREATE ROLE name;`
    private static func parseRole(_ cursor: inout CKDBCursor) throws(RecordError) -> (String, CKDBToken) {
        cursor.advance()
        try cursor.expectKeyword("ROLE", expected: "ROLE after CREATE")
        let (name, token) = try cursor.expectName("a role name")
        try checkRoleName(name, at: token, in: cursor)
        try cursor.expectPunctuation(";", expected: "';' after CREATE ROLE \(name)")
        return (name, token)
    }

    /// `RECORD TYPE Name ( field-or-grant, … );`
    private static func parseRecordType(
        _ cursor: inout CKDBCursor, recording declarations: inout CKDBDeclarations
    ) throws(RecordError) -> (RecordType, CKDBToken) {
        cursor.advance()
        try cursor.expectKeyword("TYPE", expected: "TYPE after RECORD")
        let (name, token) = try cursor.expectName("a record type name")
        let isSystemType = Identifier.isCloudKitSystemName(name)
        if !isSystemType {
            do throws(RecordError) {
                try Identifier.validate(name, as: .recordType)
            } catch {
                throw cursor.locating(error, at: token)
            }
        }
        try cursor.expectPunctuation("(", expected: "'(' after RECORD TYPE \(name)")
        var recordType = RecordType(name)
        var fieldNames = CKDBNameSet(of: "field")
        var uniqueTokens: [CKDBToken] = []
        while !cursor.isPunctuation(")") {
            if cursor.isKeyword("GRANT") {
                recordType.grants.append(try parseGrant(&cursor))
            } else if cursor.isKeyword("UNIQUE"), cursor.following.kind == .punctuation("(") {
                uniqueTokens.append(cursor.current)
                recordType.uniqueConstraints.append(try parseUnique(&cursor))
            } else {
                let (field, fieldToken) = try parseField(&cursor, inSystemType: isSystemType)
                try fieldNames.insert(field.name, at: fieldToken, in: cursor)
                recordType.fields.append(field)
            }
            guard cursor.isPunctuation(",") else { break }
            cursor.advance()
        }
        try cursor.expectPunctuation(")", expected: "',' or ')'")
        try cursor.expectPunctuation(";", expected: "';' after the ')' closing RECORD TYPE \(name)")
        declarations.fields[name.lowercased()] = fieldNames
        for (index, constraint) in recordType.uniqueConstraints.enumerated() {
            do throws(RecordError) {
                try recordType.checkUniqueConstraint(constraint, among: recordType.uniqueConstraints[..<index])
            } catch {
                var located = cursor.locating(error, at: uniqueTokens[index])
                located.code = .invalidArguments
                throw located
            }
        }
        return (recordType, token)
    }

    /// `UNIQUE (field, …)`, this engine's extension (``UniqueConstraint``); the fields are
    /// checked once the whole record type is read, since they may be declared after the line.
    private static func parseUnique(_ cursor: inout CKDBCursor) throws(RecordError) -> UniqueConstraint {
        cursor.advance()
        cursor.advance()
        var fields: [String] = []
        repeat {
            if !fields.isEmpty { cursor.advance() }
            fields.append(try cursor.expectName("a field name in UNIQUE (…)").name)
        } while cursor.isPunctuation(",")
        try cursor.expectPunctuation(")", expected: "',' or ')' in UNIQUE (\(fields.joined(separator: ", "))")
        guard cursor.isPunctuation(",") || cursor.isPunctuation(")") else {
            throw cursor.unexpected("',' or ')' after UNIQUE (\(fields.joined(separator: ", ")))")
        }
        return UniqueConstraint(fields)
    }

    /// `GRANT READ, CREATE, WRITE TO role`, the role a quoted system role or a custom one.
    private static func parseGrant(_ cursor: inout CKDBCursor) throws(RecordError) -> Grant {
        cursor.advance()
        var permissions: [Grant.Permission] = []
        repeat {
            if !permissions.isEmpty { cursor.advance() }
            guard let permission = cursor.keyword.flatMap(Grant.Permission.init(rawValue:)) else {
                let hint = permissions.isEmpty ? " (a field named GRANT is written \"GRANT\")" : ""
                throw cursor.unexpected("READ, CREATE or WRITE\(hint)")
            }
            permissions.append(permission)
            cursor.advance()
        } while cursor.isPunctuation(",")
        try cursor.expectKeyword("TO", expected: "',' or TO after GRANT \(permissions.map(\.rawValue).joined(separator: ", "))")
        let (role, token) = try cursor.expectName("a role after TO")
        try checkGrantee(role, at: token, in: cursor)
        guard cursor.isPunctuation(",") || cursor.isPunctuation(")") else {
            throw cursor.unexpected("',' or ')' after the GRANT")
        }
        return Grant(permissions, to: role)
    }

    private static func checkGrantee(_ role: String, at token: CKDBToken, in cursor: CKDBCursor) throws(RecordError) {
        if role.hasPrefix("_") {
            guard AccessPolicy.Role.all.contains(role) else {
                throw cursor.error("unknown system role '\(role)': the system roles are \(AccessPolicy.Role.quotedNames)", at: token)
            }
        } else {
            try checkRoleName(role, at: token, in: cursor)
        }
    }

    /// Custom role names follow the rules of ``Identifier``.
    private static func checkRoleName(_ role: String, at token: CKDBToken, in cursor: CKDBCursor) throws(RecordError) {
        guard Identifier.isValid(role) else {
            throw cursor.error(
                "'\(role)' is not a valid role name: role names start with a letter and contain only letters, digits and '_'",
                at: token
            )
        }
    }
}
