import Foundation
import RecordKit
import RecordQL

/// Writes the records of one type a query selects as an export file (``TransferFormat``),
/// streaming: records come from the backend a few at a time (from one read transaction of a
/// file, or page by page from a server) and are written out in chunks, so memory stays the same
/// whatever the number of records. The same records make the same bytes either way.
struct RecordExporter {
    let recordType: RecordType
    /// Text is handed on in chunks of about this many bytes.
    static let chunkSize = 1 << 16

    /// Writes every record `query` selects through `write`, in the query's order; returns how
    /// many. `total` (when known) sizes the progress bar.
    func run(
        _ query: Query, format: TransferFormat, from backend: any ShopBackend, total: Int?, progress: inout ProgressBar,
        write: (String) throws -> Void
    ) async throws(RecordError) -> Int {
        defer { progress.finish() }
        let fields = recordType.userFields
        var chunk = ""
        var count = 0
        if format == .csv {
            chunk += CSV.line(["recordName"] + fields.map(\.name))
        }
        try await backend.forEachRecord(matching: query) { record, content in
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
            try progress.update(done: count, fraction: total.map { $0 > 0 ? Double(count) / Double($0) : 1 } ?? 0)
        }
        if !chunk.isEmpty {
            do {
                try write(chunk)
            } catch {
                throw RecordError(wrapping: error)
            }
        }
        return count
    }
}
