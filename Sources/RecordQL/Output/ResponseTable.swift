/// Renders a response for people, as the REPL prints it.
///
/// A list of records (a root list field, or the `records` of a page) is a table: one column
/// per selected key in selection order, aligned, numbers to the right. A single record (what a
/// mutation returns) is a table of one row. In cells, a nested record shows its `name`, or
/// else its `recordName`; lists are joined with ", "; absent values are blank. Errors are
/// `error: <code>: <message>` lines.
///
/// ```
/// name    number  list
/// ------  ------  ---------
/// Bread           Groceries
/// Milk         2  Groceries
/// ```
public enum ResponseTable {
    /// The text of `response`, ending with a newline.
    public static func render(_ response: GraphQLResponse) -> String {
        guard response.isSuccess else {
            return response.errors.map { "error: \($0.description)\n" }.joined()
        }
        guard case .object(let fields)? = JSONValue(parsing: response.json)?["data"] else { return response.json + "\n" }
        let sections = fields.map { field in
            let body = render(field.value)
            return fields.count == 1 ? body : "\(field.key):\n" + body
        }
        return sections.joined(separator: "\n")
    }

    /// One root field's value.
    private static func render(_ value: JSONValue) -> String {
        switch value {
        case .array(let rows) where rows.allSatisfy(\.isObject):
            return rows.isEmpty ? "(none)\n" : table(rows)
        case .object where value["records"]?.isRecordList == true:
            guard case .array(let rows)? = value["records"] else { return "" }
            let records = rows.isEmpty ? "(none)\n" : table(rows)
            guard case .string(let cursor)? = value["cursor"] else { return records }
            return records + "more after: \"\(cursor)\"\n"
        case .object:
            return table([value])
        default:
            return cell(value) + "\n"
        }
    }

    /// Aligned columns for the members of `rows`, keys in order of first appearance.
    private static func table(_ rows: [JSONValue]) -> String {
        var keys: [String] = []
        for case .object(let members) in rows {
            for member in members where !keys.contains(member.key) { keys.append(member.key) }
        }
        let cells = rows.map { row in keys.map { key in row[key].map(cell) ?? "" } }
        let widths = keys.indices.map { column in
            ([keys[column]] + cells.map { $0[column] }).map(\.count).max() ?? 0
        }
        let numeric = keys.indices.map { column in
            let values = rows.compactMap { $0[keys[column]] }.filter { $0 != .null }
            return !values.isEmpty && values.allSatisfy(\.isNumber)
        }
        func line(_ texts: [String]) -> String {
            let padded = texts.indices.map { column in
                let padding = String(repeating: " ", count: widths[column] - texts[column].count)
                return numeric[column] ? padding + texts[column] : texts[column] + padding
            }
            var text = padded.joined(separator: "  ")
            while text.last == " " { text.removeLast() }
            return text + "\n"
        }
        return line(keys) + line(widths.map { String(repeating: "-", count: $0) }) + cells.map(line).joined()
    }

    /// The text of one value in a cell.
    private static func cell(_ value: JSONValue) -> String {
        switch value {
        case .null: return ""
        case .bool(let flag): return flag ? "true" : "false"
        case .number(let text): return text
        case .string(let text): return String(text.map { $0.isNewline ? " " : $0 })
        case .array(let elements): return elements.map(cell).joined(separator: ", ")
        case .object(let members):
            if let name = value["name"], name != .null { return cell(name) }
            if let recordName = value["recordName"] { return cell(recordName) }
            return members.map { cell($0.value) }.joined(separator: ", ")
        }
    }
}

extension JSONValue {
    fileprivate var isObject: Bool {
        if case .object = self { return true }
        return false
    }

    fileprivate var isNumber: Bool {
        if case .number = self { return true }
        return false
    }

    fileprivate var isRecordList: Bool {
        if case .array(let rows) = self { return rows.allSatisfy(\.isObject) }
        return false
    }
}
