import RecordQL

/// Renders a GraphQL response for people, as the REPL prints it.
///
/// A list of records (a root list field, or the `records` of a page) is a table: one column
/// per selected value in selection order, aligned, numbers to the right. Nested selections keep
/// their values: a nested record (`list { name }`) gives columns `list.name`, and a nested list
/// of records (`Items { name number }`) gives columns `Items.name` and `Items.number` with one
/// line per nested record under its parent's line, as a join would. A single record (what a
/// mutation returns) is a table of one row. Lists of values are joined with ", "; absent values
/// are blank. Errors are `error: <code>: <message>` lines.
///
/// ```
/// name       Items.name  Items.number
/// ---------  ----------  ------------
/// Groceries  Bread
///            Milk                   2
/// Party
/// ```
enum ResponseTable {
    /// The text of `response`, ending with a newline; headers styled by `style`.
    static func render(_ response: GraphQLResponse, style: TextStyle = .plain) -> String {
        guard response.isSuccess else {
            return response.errors.map { "error: \($0.shownDescription)\n" }.joined()
        }
        guard case .object(let fields)? = JSONValue(parsing: response.json)?["data"] else { return response.json + "\n" }
        let sections = fields.map { field in
            let body = render(field.value, style: style)
            return fields.count == 1 ? body : "\(field.key):\n" + body
        }
        return sections.joined(separator: "\n")
    }

    /// One root field's value.
    private static func render(_ value: JSONValue, style: TextStyle) -> String {
        switch value {
        case .array(let rows) where rows.allSatisfy(\.isObject):
            return rows.isEmpty ? "(none)\n" : table(rows, style: style)
        case .object where value["records"]?.isRecordList == true:
            guard case .array(let rows)? = value["records"] else { return "" }
            let records = rows.isEmpty ? "(none)\n" : table(rows, style: style)
            guard case .string(let cursor)? = value["cursor"] else { return records }
            return records + "more after: \"\(cursor)\"\n"
        case .object:
            return table([value], style: style)
        default:
            return value.cellText + "\n"
        }
    }

    /// Aligned columns for `records` and everything nested in them.
    private static func table(_ records: [JSONValue], style: TextStyle) -> String {
        var columns = ColumnOrder()
        let rows = records.flatMap { lines(of: $0, prefix: "", columns: &columns) }
        let paths = columns.paths
        let numeric = paths.indices.filter { index in
            let values = rows.compactMap { $0[paths[index]] }.filter { $0 != .null }
            return !values.isEmpty && values.allSatisfy(\.isNumber)
        }
        let cells = rows.map { row in paths.map { row[$0]?.cellText ?? "" } }
        return TextTable(header: paths, rows: cells, rightAligned: Set(numeric), underlinesHeader: true).rendered(style: style) + "\n"
    }

    /// The lines one record takes: its own values on the first line; each nested record's
    /// values beside them (prefixed `key.`); each nested list of records one line per record,
    /// from the first line down. Several nested lists run side by side.
    private static func lines(of record: JSONValue, prefix: String, columns: inout ColumnOrder) -> [[String: JSONValue]] {
        guard case .object(let members) = record else { return [[:]] }
        var first: [String: JSONValue] = [:]
        var blocks: [[[String: JSONValue]]] = []
        for member in members {
            let path = prefix + member.key
            switch member.value {
            case .object:
                blocks.append(lines(of: member.value, prefix: path + ".", columns: &columns))
            case .null, .array([]):
                columns.noteEmpty(path)
            case .array(let elements) where elements.allSatisfy(\.isObject):
                blocks.append(elements.flatMap { lines(of: $0, prefix: path + ".", columns: &columns) })
            default:
                columns.note(path)
                first[path] = member.value
            }
        }
        let height = max(1, blocks.map(\.count).max() ?? 1)
        return (0..<height).map { index in
            var line = index == 0 ? first : [:]
            for block in blocks where index < block.count {
                line.merge(block[index]) { $1 }
            }
            return line
        }
    }

    /// Column paths in the order first seen. An empty nested list gets a column of its own
    /// only when no record of that list gave columns under it, so the selection still shows.
    private struct ColumnOrder {
        private var seen: [String] = []
        private var emptyLists: Set<String> = []

        mutating func note(_ path: String) {
            if !seen.contains(path) { seen.append(path) }
        }

        mutating func noteEmpty(_ path: String) {
            note(path)
            emptyLists.insert(path)
        }

        var paths: [String] {
            seen.filter { path in
                !emptyLists.contains(path) || !seen.contains { $0.hasPrefix(path + ".") }
            }
        }
    }
}

extension JSONValue {
    fileprivate var isObject: Bool {
        if case .object = self { return true }
        return false
    }

    fileprivate var isRecordList: Bool {
        if case .array(let rows) = self { return rows.allSatisfy(\.isObject) }
        return false
    }
}
