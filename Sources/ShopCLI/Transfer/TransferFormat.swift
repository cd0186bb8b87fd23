import ArgumentParser
import RecordKit

/// The file formats `import` and `export` read and write.
///
/// - `csv`: a header row of field names (`recordName` first on export), then one record per
///   row (RFC 4180: cells with a comma, a quote, a line break, or an empty text are quoted, quotes
///   doubled). An empty unquoted cell is an absent value; `""` is the empty text. STRING, INT64,
///   DOUBLE, NUMBER, TIMESTAMP (ISO-8601) and BYTES (base64) cells hold the value itself; ASSET
///   its content, base64; REFERENCE, LOCATION and LIST cells hold the value's JSON (below).
/// - `jsonl`: JSON Lines, one object per line: `recordName` and each field present, as the
///   query language's `fields:` input takes them: REFERENCE `{"recordName", "action"}`,
///   LOCATION `{"latitude", "longitude", …}`, TIMESTAMP ISO-8601 text, BYTES and ASSET base64,
///   LIST an array. Absent values are left out (`null` is read as absent too).
enum TransferFormat: String, ExpressibleByArgument, CaseIterable {
    case csv
    case jsonl

    /// The format a file's extension names (`.jsonl`, `.ndjson`), CSV otherwise.
    static func guessed(from path: String?) -> TransferFormat {
        guard let path else { return .csv }
        return path.hasSuffix(".jsonl") || path.hasSuffix(".ndjson") ? .jsonl : .csv
    }
}
