import RecordKit

/// The accounts database of a data folder (`accounts.sqlite`): token digests, users with their
/// bcrypt password hashes, and server-to-server public keys, each a record type of its own.
///
/// Opening it merges the schema below into the file's (additively), so a folder made before a
/// record type existed gains it.
enum AccountsDatabase {
    /// The schema of the accounts database.
    static let schema = """
        DEFINE SCHEMA
            RECORD TYPE Tokens (
                label           STRING QUERYABLE SORTABLE,
                kind            STRING,
                user            STRING
            );
            RECORD TYPE Users (
                name            STRING QUERYABLE SORTABLE,
                passwordHash    STRING,
                discoverable    INT64
            );
            RECORD TYPE ServerKeys (
                keyID           STRING QUERYABLE SORTABLE,
                publicKey       STRING
            );
        """

    /// The accounts database of `folder`, created when new, with every record type above.
    static func open(_ folder: DataFolder) throws(RecordError) -> RecordDatabase {
        let target = try CKDBParser.parse(schema)
        let database = try RecordDatabase(path: folder.accountsPath, bootstrap: target)
        let current = try database.schema
        if !target.recordTypes.allSatisfy({ current.recordType(named: $0.name) != nil }) {
            _ = try database.updateSchema(to: target, mode: .merge)
        }
        return database
    }
}
