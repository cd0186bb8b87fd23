import Foundation
internal import GRDB

extension RecordTransaction {
    /// Deletes the record named `recordName` and, in this same transaction, every record holding
    /// a DELETE_SELF reference to it, transitively. Returns every recordName removed, the record
    /// itself first. Cycles terminate: a deleted record cannot be deleted again. The content of
    /// assets that only the removed records held is removed before the transaction commits
    /// (``removeUnheldAssets()``).
    ///
    /// The cascade is set-wise: each round deletes, per referring field, every record pointing at
    /// any record removed in the previous round, with one statement using the field's index
    /// (after one that logs them, from which their names are read back).
    public func delete(recordName: String) throws -> [String] {
        guard let location = try locate(recordName), try mayRead(recordName, of: location.recordType) else {
            throw RecordError(.unknownItem, "there is no record named '\(recordName)' to delete", recordName: recordName)
        }
        try checkWrite(recordName, of: location.recordType)
        forgetKnownRecordNames()
        try noteAssetsHeld(by: try snapshot.layout(location.recordType), where: "\(SQLName.rowID) = ?1", arguments: [location.rowID])
        try db.cachedStatement(sql: "DELETE FROM \(SQLName.table(location.recordType)) WHERE _rowid = ?")
            .execute(arguments: [location.rowID])
        let now = Timestamp.milliseconds(Date())
        let createdBy = try RecordAuthors.hasRows(db) ? RecordAuthors.authors(of: recordName, in: db).createdBy : nil
        changeLog.deleted(location.recordType, recordName, at: now, createdBy: createdBy)
        var deleted = [recordName]
        // Records deleted in the last round, by record type: only fields that may point at
        // one of those types (untyped, or declared to reference it) can cascade further.
        var frontier = [location.recordType: [recordName]]
        while !frontier.isEmpty {
            var next: [String: [String]] = [:]
            for referring in snapshot.referringFields {
                let targets = referring.referencedType.map { frontier[$0] ?? [] } ?? frontier.values.flatMap { $0 }
                guard !targets.isEmpty else { continue }
                let names = JSONText.array(targets)
                let condition = Self.cascadeCondition(referring)
                let table = SQLName.table(referring.recordType)
                let removed = try changeLog.logDeletions(
                    of: referring.recordType, matching: "FROM \(table) WHERE \(condition)", names: names, at: now, in: db
                )
                if !removed.isEmpty {
                    try noteAssetsHeld(by: try snapshot.layout(referring.recordType), where: condition, arguments: [names])
                    try db.cachedStatement(sql: "DELETE FROM \(table) WHERE \(condition)").execute(arguments: [names])
                    next[referring.recordType, default: []] += removed
                    deleted += removed
                }
            }
            frontier = next
        }
        try RecordAuthors.deleted(deleted, in: db)
        return deleted
    }

    /// The records of one referring field that point with DELETE_SELF at any name in the JSON
    /// array bound as parameter `?1`. (The cascade logs them, then deletes them: two index range
    /// scans cost less than `DELETE … RETURNING`, which materializes its rows.)
    private static func cascadeCondition(_ referring: SchemaSnapshot.ReferringField) -> String {
        let table = SQLName.table(referring.recordType)
        let column = SQLName.column(referring.field)
        if referring.isList {
            return """
                EXISTS (SELECT 1 FROM json_each(\(table).\(column)) AS element \
                WHERE element.value ->> '$.action' = 'DELETE_SELF' \
                AND element.value ->> '$.recordName' IN (SELECT value FROM json_each(?1)))
                """
        }
        return "\(column) IN (SELECT value FROM json_each(?1)) AND \(SQLName.actionColumn(referring.field)) = 1"
    }
}
