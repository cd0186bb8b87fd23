internal import GRDB

/// The identity of a change log: a random text made once with the database file (each custom
/// zone's file has its own), kept in `_meta` under `changeLogIdentity`, and carried by every
/// ``ChangeToken`` the log issues. A token carrying another identity — one of another database
/// or zone, or of a zone deleted and created again under the same name — names positions of
/// another log, so ``checkServable(_:)`` refuses it instead of reading this log at them.
extension RecordTransaction {
    /// The migration step that gives a database its identity.
    static func createChangeLogIdentity(_ db: Database) throws {
        try db.execute(sql: "INSERT OR IGNORE INTO _meta(key, value) VALUES ('changeLogIdentity', lower(hex(randomblob(8))))")
    }

    /// This log's identity (16 lowercase hexadecimal digits); `nil` in a file opened read-only
    /// that was written before identities (its tokens carry none).
    func changeLogIdentity() throws -> String? {
        try String.fetchOne(db.cachedStatement(sql: "SELECT value FROM _meta WHERE key = 'changeLogIdentity'"))
    }

    /// A token of this log at `sequence` (of the default zone: a caller serving a custom zone's
    /// feed sets ``ChangeToken/zone``), carrying the floor when it is below it.
    func changeToken(at sequence: Int64) throws -> ChangeToken {
        let floor = try changeLogFloor()
        return ChangeToken(sequence: sequence, log: try changeLogIdentity(), floor: sequence < floor ? floor : nil)
    }
}
