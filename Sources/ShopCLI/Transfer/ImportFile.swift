import Foundation
import GraphQL
import OrderedCollections
import RecordKit
import RecordQL

/// An import file (``TransferFormat``) of records of one type, read and typed row by row: values
/// are typed by the schema through the same translator a `createT` mutation's `fields:` goes
/// through, and a bad row fails with `FILE:LINE: ` and the reason.
///
/// The rows are read here, in the client, whatever the backend; the backend creates them all in
/// one transaction (``ShopBackend/importRecords(_:progress:)``), so the first failing row refuses
/// the whole file and nothing is applied.
struct ImportFile {
    let recordType: RecordType
    let translator: FieldInputTranslator
    /// The name each field has in `TInput`, by field name.
    let inputNames: [String: String]
    /// The file's name as errors show it.
    let path: String
    let bytes: [UInt8]
    let format: TransferFormat

    /// `bytes` of a file at `path` (named so in errors), without the byte order mark a
    /// spreadsheet writes first (Excel's "CSV UTF-8"), which is not part of the first field name.
    init(
        recordType: RecordType, translator: FieldInputTranslator, inputNames: [String: String], path: String, bytes: [UInt8], format: TransferFormat
    ) {
        self.recordType = recordType
        self.translator = translator
        self.inputNames = inputNames
        self.path = path
        self.bytes = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? Array(bytes.dropFirst(3)) : bytes
        self.format = format
    }

    /// One row of the file: where it is, the record it makes, and its fields as the query
    /// language's `fields:` input (`TInput`'s names, JSON values) for a server to type again.
    struct Row {
        let line: Int
        let record: Record
        let fields: JSONValue
    }

    /// Calls `body` with each row in order, then advances `progress`.
    func forEachRow(progress: inout ProgressBar, _ body: (Row) throws -> Void) throws(RecordError) {
        defer { progress.finish() }
        if let line = firstLineNotUTF8 {
            let spreadsheet = format == .csv ? " (in a spreadsheet: CSV UTF-8)" : ""
            throw RecordError(
                .invalidArguments, "\(path):\(line): the file is not UTF-8 text; save it as UTF-8\(spreadsheet) and import it again",
                recordType: recordType.name)
        }
        var count = 0
        do {
            try forEachRow(bytes, format: format) { line, members, fraction in
                let row: Row
                do {
                    row = try self.row(members, line: line)
                } catch let error as TransferError {
                    throw RecordError(.invalidArguments, "\(path):\(line): \(error.reason)", recordType: recordType.name)
                } catch {
                    throw located(RecordError(wrapping: error), line: line)
                }
                try body(row)
                count += 1
                try progress.update(done: count, fraction: fraction)
            }
        } catch {
            throw RecordError(wrapping: error)
        }
    }

    /// The first line holding bytes that are not UTF-8 (a file saved as Latin-1 or Windows-1252),
    /// or `nil` when the whole file is UTF-8: its text is never repaired into U+FFFD.
    private var firstLineNotUTF8: Int? {
        guard String(validating: bytes, as: UTF8.self) == nil else { return nil }
        var line = 0
        for text in bytes.split(separator: 10, omittingEmptySubsequences: false) {
            line += 1
            if String(validating: text, as: UTF8.self) == nil { return line }
        }
        return line
    }

    /// `error`, met creating the record of the row at `line`, located: `FILE:LINE: ` before its
    /// message (`FILE: ` when the line is not known).
    func located(_ error: RecordError, line: Int?) -> RecordError {
        var located = error
        located.message = "\(path):" + (line.map { "\($0):" } ?? "") + " \(error.message)"
        return located
    }

    /// Whether `error` names this file already (``located(_:line:)``).
    func isLocated(_ error: RecordError) -> Bool {
        error.message.hasPrefix("\(path):")
    }

    /// The line of the row making the record `recordName`, read from the file again (for an
    /// error found once every row was written); `nil` when no row names it.
    func line(of recordName: String?) -> Int? {
        guard let recordName else { return nil }
        var found: Int?
        try? forEachRow(bytes, format: format) { line, members, _ in
            guard found == nil, let row = try? self.row(members, line: line), row.record.recordName == recordName else { return }
            found = line
        }
        return found
    }

    /// Calls `body` with each row's line, its members (`recordName` and field names) and how far
    /// through the file it is.
    private func forEachRow(_ bytes: [UInt8], format: TransferFormat, _ body: (Int, [(String, JSONValue)], Double) throws -> Void) throws {
        switch format {
        case .csv:
            var reader = CSV.Reader(bytes)
            func nextRow() throws(RecordError) -> CSV.Row? {
                do throws(TransferError) {
                    return try reader.next()
                } catch {
                    throw RecordError(.invalidArguments, "\(path):\(reader.line): \(error.reason)", recordType: recordType.name)
                }
            }
            guard let header = try nextRow() else { return }
            let columns: [(name: String, type: FieldType?)]
            do throws(TransferError) {
                columns = try self.columns(header.cells)
            } catch {
                throw RecordError(.invalidArguments, "\(path):\(header.line): \(error.reason)", recordType: recordType.name)
            }
            while let row = try nextRow() {
                guard row.cells.count == columns.count else {
                    throw RecordError(
                        .invalidArguments, "\(path):\(row.line): the row has \(row.cells.count) cells; the header names \(columns.count)",
                        recordType: recordType.name)
                }
                var members: [(String, JSONValue)] = []
                for (column, cell) in zip(columns, row.cells) {
                    guard let cell else { continue }
                    do throws(TransferError) {
                        members.append(
                            (column.name, try column.type.map { type throws(TransferError) in try TransferValue.json(cell: cell, type: type) } ?? .string(cell))
                        )
                    } catch {
                        throw RecordError(.invalidArguments, "\(path):\(row.line): \(column.name): \(error.reason)", recordType: recordType.name)
                    }
                }
                try body(row.line, members, reader.fraction)
            }
        case .jsonl:
            var line = 0
            var start = 0
            while start < bytes.count {
                line += 1
                let end = bytes[start...].firstIndex(of: 10) ?? bytes.count
                let text = String(decoding: bytes[start..<end], as: UTF8.self)
                start = end + 1
                guard !text.allSatisfy(\.isWhitespace) else { continue }
                guard case .object(let members)? = JSONValue(parsing: text) else {
                    throw RecordError(.invalidArguments, "\(path):\(line): the line is not a JSON object", recordType: recordType.name)
                }
                try body(line, members.filter { $0.value != .null }.map { ($0.key, $0.value) }, Double(start) / Double(bytes.count))
            }
        }
    }

    /// What each header cell names: `recordName` (no type) or a field of the record type.
    private func columns(_ header: [String?]) throws(TransferError) -> [(name: String, type: FieldType?)] {
        var columns: [(name: String, type: FieldType?)] = []
        for cell in header {
            guard let name = cell, !name.isEmpty else { throw TransferError("the header has an empty column name") }
            guard !columns.contains(where: { $0.name == name }) else { throw TransferError("the header names '\(name)' twice") }
            if name == "recordName" {
                columns.append((name, nil))
            } else if let field = recordType.field(named: name) {
                columns.append((name, field.type))
            } else {
                throw TransferError("\(recordType.name) has no field '\(name)'; add it with: schema add-field \(recordType.name) \(name) <TYPE>")
            }
        }
        return columns
    }

    /// `json` as the input value GraphQL's coercion would make of it; integers stay exact.
    private static func map(_ json: JSONValue) -> Map {
        switch json {
        case .null: .null
        case .bool(let value): .bool(value)
        case .number(let text): Int(text).map { .number(Number($0)) } ?? .number(Number(Double(text) ?? .nan))
        case .string(let text): .string(text)
        case .array(let elements): .array(elements.map(map))
        case .object(let members): .dictionary(.init(members.map { ($0.key, map($0.value)) }, uniquingKeysWith: { first, _ in first }))
        }
    }

    /// The row one line holds.
    private func row(_ members: [(String, JSONValue)], line: Int) throws -> Row {
        var recordName: String?
        var input: [JSONValue.Member] = []
        for (name, value) in members {
            if name == "recordName" {
                guard case .string(let text) = value else { throw TransferError("recordName must be text") }
                recordName = text
            } else if let inputName = inputNames[name] {
                input.append(JSONValue.Member(key: inputName, value: value))
            } else {
                throw TransferError("\(recordType.name) has no field '\(name)'; add it with: schema add-field \(recordType.name) \(name) <TYPE>")
            }
        }
        let fields = try translator.values(from: Self.map(.object(input))).compactMapValues { $0 }
        return Row(line: line, record: Record(recordType.name, recordName: recordName ?? Record.generatedName(), fields: fields), fields: .object(input))
    }
}
