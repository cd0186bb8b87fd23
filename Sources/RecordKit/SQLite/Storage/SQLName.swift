/// How schema names become SQL identifiers.
///
/// Only names that passed ``Identifier`` validation (or the fixed system names) reach here, so
/// double-quoting is enough; every internal name contains a character user names cannot have
/// (`_` first, or `(`), so tables, columns and indexes of different record types never collide.
enum SQLName {
    /// A double-quoted identifier.
    static func quoted(_ name: String) -> String { "\"\(name)\"" }

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
}
