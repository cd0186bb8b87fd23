import Foundation

/// Comma-separated values as RFC 4180 has them, keeping the difference between an empty
/// unquoted cell (`nil`: an absent value) and a quoted empty one (`""`: the empty text).
enum CSV {
    /// One row as a line of text (with its line break): cells quoted when they hold a comma, a
    /// quote, a line break or nothing, quotes doubled.
    static func line(_ cells: [String?]) -> String {
        cells.map { cell in
            guard let cell else { return "" }
            guard cell.isEmpty || cell.utf8.contains(where: { $0 == UInt8(ascii: ",") || $0 == UInt8(ascii: "\"") || $0 == 10 || $0 == 13 }) else {
                return cell
            }
            return "\"" + cell.replacingOccurrences(of: "\"", with: "\"\"") + "\""
        }.joined(separator: ",") + "\n"
    }

    /// One row read from a file, with the line it starts on (1-based).
    struct Row {
        var line: Int
        var cells: [String?]
    }

    /// Reads the rows of UTF-8 text one at a time; a quoted cell may span lines.
    struct Reader {
        private let bytes: [UInt8]
        private var position = 0
        /// The line the reader is on.
        private(set) var line = 1

        init(_ bytes: [UInt8]) {
            self.bytes = bytes
        }

        /// How far through the text the reader is, from 0 to 1.
        var fraction: Double { bytes.isEmpty ? 1 : Double(position) / Double(bytes.count) }

        /// The next row, `nil` at the end; throws on a quote out of place or an unclosed one. A
        /// blank line is no row (a file often ends with one), as in JSON Lines and as Python's
        /// `csv.DictReader` and spreadsheets read it (an export never writes one: each row
        /// starts with its recordName).
        mutating func next() throws(TransferError) -> Row? {
            while position < bytes.count {
                let row = try readRow()
                if row.cells != [nil] { return row }
            }
            return nil
        }

        /// The row starting at the reader's position, a blank line as one absent cell.
        private mutating func readRow() throws(TransferError) -> Row {
            let start = line
            var cells: [String?] = []
            while true {
                let (cell, ended) = try readCell(rowStart: start)
                cells.append(cell)
                if ended { return Row(line: start, cells: cells) }
            }
        }

        /// One cell and whether it ended its row.
        private mutating func readCell(rowStart: Int) throws(TransferError) -> (String?, Bool) {
            if position < bytes.count, bytes[position] == UInt8(ascii: "\"") {
                position += 1
                var text: [UInt8] = []
                while true {
                    guard position < bytes.count else {
                        throw TransferError("the quoted cell starting on line \(rowStart) is never closed")
                    }
                    let byte = bytes[position]
                    position += 1
                    if byte == UInt8(ascii: "\"") {
                        if position < bytes.count, bytes[position] == UInt8(ascii: "\"") {
                            text.append(byte)
                            position += 1
                            continue
                        }
                        let ended = try endOfCell()
                        return (String(decoding: text, as: UTF8.self), ended)
                    }
                    if byte == 10 { line += 1 }
                    text.append(byte)
                }
            }
            let start = position
            while position < bytes.count, bytes[position] != UInt8(ascii: ","), bytes[position] != 10, bytes[position] != 13 {
                if bytes[position] == UInt8(ascii: "\"") {
                    throw TransferError("a quote inside an unquoted cell; quote the whole cell and double the quote (\"\")")
                }
                position += 1
            }
            let text = bytes[start..<position]
            let ended = try endOfCell()
            return (text.isEmpty ? nil : String(decoding: text, as: UTF8.self), ended)
        }

        /// Consumes what follows a cell: a comma (`false`), a line break or the end (`true`).
        private mutating func endOfCell() throws(TransferError) -> Bool {
            guard position < bytes.count else { return true }
            switch bytes[position] {
            case UInt8(ascii: ","):
                position += 1
                return false
            case 13:
                position += 1
                if position < bytes.count, bytes[position] == 10 { position += 1 }
                line += 1
                return true
            case 10:
                position += 1
                line += 1
                return true
            default:
                throw TransferError("a closing quote must end the cell (followed by a comma or a line break)")
            }
        }
    }
}
