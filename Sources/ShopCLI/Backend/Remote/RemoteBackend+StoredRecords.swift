import Foundation
import NIOHTTP1
import RecordKit
import RecordQL

/// Records as stored, from CloudKit's `records/lookup`: what GraphQL resolves away — a
/// reference to a record that is gone reads there as the recordName it holds, as a file shows it.
extension RemoteBackend {
    /// The most records one `records/lookup` takes.
    static let lookupSize = 200

    /// The stored records named `names`, in that order (one deleted meanwhile left out), in
    /// requests of at most ``lookupSize``.
    func storedRecords(named names: [String], of type: RecordType) async throws(RecordError) -> [Record] {
        var records: [Record] = []
        for start in stride(from: 0, to: names.count, by: Self.lookupSize) {
            let part = names[start..<min(start + Self.lookupSize, names.count)]
            let body = JSONValue.members(["records": .array(part.map { JSONValue.members(["recordName": .string($0)]) })])
            guard case .array(let entries)? = try await json(try await send(.POST, "records/lookup", body: body))["records"] else {
                throw RecordError(.internalError, "the server at \(location) answered records/lookup without records")
            }
            for entry in entries where entry["serverErrorCode"] == nil {
                records.append(try CloudKitRecords.record(entry, of: type))
            }
        }
        return records
    }

    /// The records under `key` of a GraphQL answer, typed by `type`, each whose answer may hide
    /// a reference (``GraphQLRecords/mayHideReference(_:of:)``) read again as stored, so that a
    /// reference to a record that is gone shows its recordName as on a file.
    func decodedRecords(in data: JSONValue, key: String, of type: RecordType) async throws(RecordError) -> [Record] {
        let (records, hiding) = try GraphQLRecords.records(data, key: key, of: type)
        guard !hiding.isEmpty else { return records }
        let stored = Dictionary(try await storedRecords(named: hiding, of: type).map { ($0.recordName, $0) }) { first, _ in first }
        return records.map { stored[$0.recordName] ?? $0 }
    }
}
