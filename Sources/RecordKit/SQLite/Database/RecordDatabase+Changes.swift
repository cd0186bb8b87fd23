public import Foundation
internal import GRDB

/// One entry of the change log: a record saved or deleted, in commit order.
public struct Change: Sendable, Hashable {
    public enum Kind: String, Sendable, Hashable {
        case saved
        case deleted
    }

    /// Increases with every change; pass the last one seen to ``RecordDatabase/changes(after:limit:)``.
    public var sequence: Int64
    public var recordType: String
    public var recordName: String
    public var kind: Kind
    /// The change tag the save produced; `nil` for deletions.
    public var changeTag: String?
    public var at: Date
}

extension RecordDatabase {
    /// Changes after `sequence`, oldest first, at most `limit` of them. The log is written in the
    /// same transaction as the changes (``ChangeLog``), so it never disagrees with the data.
    public func changes(after sequence: Int64 = 0, limit: Int = 1000) throws(RecordError) -> [Change] {
        try performRead { try $0.changes(after: sequence, limit: limit) }
    }
}

extension RecordTransaction {
    /// Changes after `sequence`, oldest first, at most `limit` of them.
    func changes(after sequence: Int64, limit: Int) throws -> [Change] {
        try Row.fetchAll(
            db.cachedStatement(sql: "SELECT seq, recordType, recordName, kind, changeTag, at FROM _changes WHERE seq > ? ORDER BY seq LIMIT ?"),
            arguments: [sequence, limit]
        ).map { row in
            Change(
                sequence: row["seq"], recordType: row["recordType"], recordName: row["recordName"],
                kind: Change.Kind(rawValue: row["kind"]) ?? .saved, changeTag: row["changeTag"],
                at: Timestamp.date(milliseconds: row["at"])
            )
        }
    }
}
