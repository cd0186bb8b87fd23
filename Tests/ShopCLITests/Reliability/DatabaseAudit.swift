import Foundation
import TestSupport

@testable import RecordKit

/// What must hold of a database file whatever happened to the processes that wrote it: it
/// opens, SQLite finds it intact, no record holds a DELETE_SELF reference to a record that is
/// gone, and the change log agrees with the data.
enum DatabaseAudit {
    /// Everything wrong with the database at `path`, as sentences; empty when all holds.
    static func problems(at path: String) throws -> [String] {
        let database = try RecordDatabase(path: path, bootstrap: .shopping)
        var problems: [String] = []
        let integrity = try SQLiteFile(path: path).strings("PRAGMA integrity_check")
        if integrity != ["ok"] {
            problems.append("integrity_check: \(integrity.joined(separator: "; "))")
        }
        var stored: [String: RecordKit.Record] = [:]
        for type in try database.schema.recordTypes where !type.isCloudKitSystemType {
            for record in try database.records(matching: Query(type.name)) {
                stored[record.recordName] = record
            }
        }
        for record in stored.values {
            for (field, value) in record.fields {
                for reference in value.references where reference.action == .deleteSelf && stored[reference.recordName] == nil {
                    problems.append("\(record.recordType) '\(record.recordName)' survives its deleted parent '\(reference.recordName)' (\(field))")
                }
            }
        }
        var lastChange: [String: Change] = [:]
        var after: Int64 = 0
        while true {
            let changes = try database.changes(after: after, limit: 10_000)
            guard let last = changes.last else { break }
            for change in changes { lastChange[change.recordName] = change }
            after = last.sequence
        }
        for record in stored.values {
            guard let change = lastChange[record.recordName] else {
                problems.append("\(record.recordType) '\(record.recordName)' is stored but not in the change log")
                continue
            }
            if change.kind != .saved || change.changeTag != record.changeTag || change.recordType != record.recordType {
                problems.append(
                    "\(record.recordType) '\(record.recordName)' has tag \(record.changeTag ?? "nil"); its last logged change is \(change.kind) \(change.changeTag ?? "")"
                )
            }
        }
        for change in lastChange.values where stored[change.recordName] == nil && change.kind != .deleted {
            problems.append("\(change.recordType) '\(change.recordName)' is gone but its last logged change is \(change.kind), not a deletion")
        }
        return problems
    }
}
