/// Writes a ``Schema`` in the canonical layout of `cktool export-schema` (CloudKit's schema language, as the README describes it):
///
/// ```
/// DEFINE SCHEMA
///
///     CREATE ROLE Moderator;
///
///     RECORD TYPE Items (
///         "___recordID"   REFERENCE QUERYABLE,
///         name            STRING QUERYABLE SEARCHABLE SORTABLE,
///         GRANT WRITE TO "_creator",
///         GRANT READ, WRITE TO Moderator
///     );
/// ```
///
/// This engine's own rules print where its parser reads them: `NOT EMPTY` after a field's
/// flags, `UNIQUE (…)` lines after the fields and before the grants.
///
/// Roles come first, then record types in the schema's order (by name), each after a blank
/// line. Types are indented 4 spaces and fields 8; field names are padded to one column per
/// record type, one space past the longest name but never narrower than 16 characters — the
/// column cktool's exports always have, since they list every system field and
/// `"___modifiedBy"` is 15 characters long. Flags follow in canonical order (`QUERYABLE
/// SEARCHABLE SORTABLE`), fields keep their declaration order and grants come last. System
/// field names and system roles (`"_creator"`) are written quoted, other names only when they
/// are keywords (``reservedWords``).
///
/// `CKDBParser.parse(CKDBPrinter.print(s)) == s` for every schema the parser can produce, so
/// printing is idempotent.
public enum CKDBPrinter {
    /// Prints `schema` as CKDB text, ending with a newline.
    public static func print(_ schema: Schema) -> String {
        var blocks: [String] = []
        if !schema.roles.isEmpty {
            blocks.append(schema.roles.map { "    CREATE ROLE \(spelled($0));\n" }.joined())
        }
        blocks += schema.recordTypes.map(recordType)
        return "DEFINE SCHEMA\n" + blocks.map { "\n" + $0 }.joined()
    }

    /// The narrowest field-name column, the width cktool's exports always have.
    static let minimumColumn = 16

    /// Words written quoted when they are names. cktool's own exports quote `"from"` and `"to"`
    /// but leave `type`, `role`, `list` and `timestamp` bare, so the list holds the words that
    /// begin or join clauses, and not type names.
    static let reservedWords: Set<String> = [
        "AS", "CREATE", "DEFINE", "ENCRYPTED", "FROM", "GRANT", "PREFERRED", "QUERYABLE", "READ",
        "RECORD", "SCHEMA", "SEARCHABLE", "SORTABLE", "TO", "WRITE",
    ]

    /// `name`, quoted when it is a system field, a reserved word or not a plain identifier.
    static func spelled(_ name: String) -> String {
        let isPlain = SystemField(rawValue: name) == nil && Identifier.isValid(name)
        return isPlain && !reservedWords.contains(name.uppercased()) ? name : "\"\(name)\""
    }

    private static func recordType(_ recordType: RecordType) -> String {
        let names = recordType.fields.map { spelled($0.name) }
        let column = max(minimumColumn, (names.map(\.count).max() ?? 0) + 1)
        let fields = zip(names, recordType.fields).map { name, field in
            let flags = (field.flags.isEmpty ? "" : " \(field.flags)") + (field.isRequired ? " NOT EMPTY" : "")
            let line = "        " + name + String(repeating: " ", count: column - name.count) + field.ckdbType + flags
            return (line, field.referencedType.map { " // \(CKDBLexer.annotationPrefix)\($0)" })
        }
        let unique = recordType.uniqueConstraints.map { constraint in
            ("        UNIQUE (\(constraint.fields.map(spelled).joined(separator: ", ")))", String?.none)
        }
        let grants = recordType.grants.map { grant in
            ("        GRANT \(grant.permissions.map(\.rawValue).joined(separator: ", ")) TO \(spelled(grant.role))", String?.none)
        }
        let items = fields + unique + grants
        let body = items.enumerated().map { index, item in
            item.0 + (index < items.count - 1 ? "," : "") + (item.1 ?? "")
        }.map { $0 + "\n" }.joined()
        return "    RECORD TYPE \(spelled(recordType.name)) (\n" + body + "    );\n"
    }
}

extension FieldDefinition {
    /// The field's type as CKDB writes it, `ENCRYPTED` included: `ENCRYPTED STRING`,
    /// `LIST<ENCRYPTED BYTES>`, `NUMBER PREFERRED AS INT64`.
    var ckdbType: String {
        guard isEncrypted else { return type.description }
        if let element = type.elementType { return "LIST<ENCRYPTED \(element)>" }
        return "ENCRYPTED \(type)"
    }
}
