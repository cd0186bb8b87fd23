/// How schema names become SQL identifiers.
///
/// Only names that passed ``Identifier`` validation (or the fixed system names) reach here, so
/// double-quoting is enough; every internal name contains a character user names cannot have
/// (`_` first, or `(`), so tables, columns and indexes of different record types never collide.
enum SQLName {
    /// A double-quoted identifier.
    static func quoted(_ name: String) -> String { "\"\(name)\"" }

    /// `name` without the double quotes of ``quoted(_:)`` (as SQLite's catalog names it).
    static func unquoted(_ name: String) -> String {
        name.hasPrefix("\"") && name.hasSuffix("\"") && name.count > 1 ? String(name.dropFirst().dropLast()) : name
    }

    /// The table holding records of `recordType`.
    static func table(_ recordType: String) -> String { quoted(recordType) }

    /// The column holding a user field's value.
    static func column(_ field: String) -> String { quoted(field) }

    /// The column holding the reference action of REFERENCE field `field` (1 = DELETE_SELF).
    static func actionColumn(_ field: String) -> String { quoted("_action_\(field)") }

    /// The FTS5 table indexing the SEARCHABLE fields of `recordType`.
    static func fullTextTable(_ recordType: String) -> String { quoted("_fts(\(recordType))") }

    /// An index or trigger name: `_kind(Type:part:part)`.
    static func object(_ kind: String, _ recordType: String, _ parts: [String] = []) -> String {
        quoted("_\(kind)(" + ([recordType] + parts).joined(separator: ":") + ")")
    }

    /// The system columns every record table starts with, in select order.
    static let recordName = "_recordName"
    static let createdAt = "_createdAt"
    static let modifiedAt = "_modifiedAt"
    static let changeTag = "_changeTag"
    static let rowID = "_rowid"
    static let systemColumns = [rowID, recordName, createdAt, modifiedAt, changeTag]

    /// Every column of `recordType`'s table in select order: the system columns, then each user
    /// field's (``FieldDefinition/storedColumns``).
    static func storedColumns(of recordType: RecordType) -> [String] {
        systemColumns + recordType.userFields.flatMap(\.storedColumns)
    }
}

extension FieldDefinition {
    /// The columns holding a user field: its value, and for a REFERENCE its action.
    var storedColumns: [String] {
        type == .reference ? [SQLName.column(name), SQLName.actionColumn(name)] : [SQLName.column(name)]
    }
}
