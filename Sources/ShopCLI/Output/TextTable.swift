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
        let cells = ([header] + rows).map { line in
            header.indices.map { column in
                (line.indices.contains(column) ? line[column] : "").truncated(toWidth: Self.maximumCellWidth)
            }
        }
        let widths = header.indices.map { column in cells.map { $0[column].displayWidth }.max() ?? 0 }
        var lines = cells.map { line(of: $0, widths: widths) }
        lines[0] = style.header(lines[0])
        if underlinesHeader {
            lines.insert(line(of: widths.map { String(repeating: "-", count: $0) }, widths: widths), at: 1)
        }
        return lines.joined(separator: "\n")
    }

    private func line(of texts: [String], widths: [Int]) -> String {
        var text = texts.indices.map { column in
            let padding = String(repeating: " ", count: widths[column] - texts[column].displayWidth)
            return rightAligned.contains(column) ? padding + texts[column] : texts[column] + padding
        }
        .joined(separator: "  ")
        while text.last == " " { text.removeLast() }
        return text
    }
}
