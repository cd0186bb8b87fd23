/// Rows of text in aligned columns, with a header line: what `lists`, `items`, `transactions`
/// and `schema history` print.
struct TextTable {
    var header: [String]
    var rows: [[String]]
    /// Columns whose values are right-aligned (counts, numbers).
    var rightAligned: Set<Int> = []

    /// The table, one line per row, columns separated by two spaces, no trailing spaces.
    var rendered: String {
        let lines = [header] + rows
        let widths = header.indices.map { column in
            lines.map { $0.indices.contains(column) ? $0[column].count : 0 }.max() ?? 0
        }
        return lines.map { line in
            line.enumerated().map { column, text in
                let padding = String(repeating: " ", count: widths[column] - text.count)
                if rightAligned.contains(column) { return padding + text }
                return column == line.count - 1 ? text : text + padding
            }
            .joined(separator: "  ")
        }
        .joined(separator: "\n")
    }
}
