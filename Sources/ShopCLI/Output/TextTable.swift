/// Rows of text in aligned columns, with a header line: what `lists`, `items`, `transactions`,
/// `schema history` and GraphQL responses print.
///
/// Columns are aligned by display width (``Swift/String/displayWidth``: CJK and emoji take two
/// columns, combining marks none), and a cell wider than ``maximumCellWidth`` is cut with `…`.
struct TextTable {
    /// The widest a cell is shown; longer text is cut to this width, ending in `…`.
    static let maximumCellWidth = 48

    var header: [String]
    var rows: [[String]]
    /// Columns whose values are right-aligned (counts, numbers).
    var rightAligned: Set<Int> = []
    /// Whether a line of dashes separates the header from the rows.
    var underlinesHeader = false

    /// The table, one line per row, columns separated by two spaces, no trailing spaces; the
    /// header line styled by `style`.
    func rendered(style: TextStyle = .plain) -> String {
        let headerCells = cells(of: header)
        let rowCells = rows.map(cells(of:))
        var widths = headerCells.map(\.width)
        for row in rowCells {
            for (column, cell) in row.enumerated() where cell.width > widths[column] { widths[column] = cell.width }
        }
        var text = style.header(line(of: headerCells, widths: widths))
        if underlinesHeader {
            text += "\n" + line(of: widths.map { Cell(String(repeating: "-", count: $0)) }, widths: widths)
        }
        for row in rowCells {
            text += "\n"
            text += line(of: row, widths: widths)
        }
        return text
    }

    /// A cell's text, cut to ``maximumCellWidth``, with its display width measured once.
    private struct Cell {
        var text: String
        var width: Int

        init(_ text: String) {
            let width = text.displayWidth
            if width > TextTable.maximumCellWidth {
                self.text = text.truncated(toWidth: TextTable.maximumCellWidth)
                self.width = self.text.displayWidth
            } else {
                self.text = text
                self.width = width
            }
        }
    }

    /// One cell per header column: `texts` padded with empty cells or cut to the header's count.
    private func cells(of texts: [String]) -> [Cell] {
        header.indices.map { column in Cell(texts.indices.contains(column) ? texts[column] : "") }
    }

    private func line(of cells: [Cell], widths: [Int]) -> String {
        var text = ""
        for (column, cell) in cells.enumerated() {
            if column > 0 { text += "  " }
            // Every cell is cut to `maximumCellWidth`, so no padding is wider than `blanks` has.
            let padding = Self.blanks[widths[column] - cell.width]
            if rightAligned.contains(column) {
                text += padding
                text += cell.text
            } else {
                text += cell.text
                text += padding
            }
        }
        while text.utf8.last == UInt8(ascii: " ") { text.removeLast() }
        return text
    }

    /// Padding of every width a cell can need, made once.
    private static let blanks = (0...maximumCellWidth).map { String(repeating: " ", count: $0) }
}
