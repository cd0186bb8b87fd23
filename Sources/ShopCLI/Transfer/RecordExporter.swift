import Foundation
import RecordKit
import RecordQL

/// Writes the records of one type a query selects as an export file (``TransferFormat``),
/// streaming: records are read one at a time from one read transaction and written out in
/// chunks, so memory stays the same whatever the number of records.
struct RecordExporter {
    let recordType: RecordType
    /// Text is handed on in chunks of about this many bytes.
    static let chunkSize = 1 << 16

    /// Writes every record `query` selects through `write`, in the query's order; returns how
    /// many. `total` (when known) sizes the progress bar.
    func run(
        _ query: Query, format: TransferFormat, in database: RecordDatabase, total: Int?, progress: inout ProgressBar,
        write: (String) throws -> Void
    ) throws(RecordError) -> Int {
        defer { progress.finish() }
        let fields = recordType.userFields
        do {
            return try database.read { transaction in
                var chunk = ""
                var count = 0
                if format == .csv {
                    chunk += CSV.line(["recordName"] + fields.map(\.name))
                }
                try transaction.forEachRecord(matching: query) { record in
                    let content = { (sha256: String) in try transaction.assetContent(sha256: sha256) }
                    switch format {
                    case .csv:
                        var cells: [String?] = [record.recordName]
                        for field in fields {
                            cells.append(try record.fields[field.name].map { TransferValue.cell(try TransferValue.json($0, assetContent: content)) })
                        }
                        chunk += CSV.line(cells)
                    case .jsonl:
                        var members = [JSONValue.Member(key: "recordName", value: .string(record.recordName))]
                        for field in fields {
                            guard let value = record.fields[field.name] else { continue }
                            members.append(JSONValue.Member(key: field.name, value: try TransferValue.json(value, assetContent: content)))
                        }
                        chunk += JSONValue.object(members).text + "\n"
                    }
                    count += 1
                    if chunk.utf8.count >= Self.chunkSize {
                        try write(chunk)
                        chunk = ""
                    }
                    progress.update(done: count, fraction: total.map { $0 > 0 ? Double(count) / Double($0) : 1 } ?? 0)
                }
                if !chunk.isEmpty { try write(chunk) }
                return count
            }
        } catch {
            throw RecordError(wrapping: error)
        }
    }
}
