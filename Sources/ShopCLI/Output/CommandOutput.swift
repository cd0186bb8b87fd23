import RecordQL

/// What a command prints: text for people, or with `--json` one JSON document on one line.
///
/// Every command hands its output to ``ShopSession/show(_:)`` as one of these, so `--json`,
/// colour and the pager apply to all of them alike. A new command picks the form that fits:
///
/// - ``rows(_:columns:whenEmpty:)``: a table; JSON is the array of row objects.
/// - ``records(_:columns:whenEmpty:)``: records as a table of their fields; JSON is the array of
///   their documents, system fields included.
/// - ``record(_:)``: one record as `key: value` lines; JSON is the object.
/// - ``message(_:_:)``: what a write did, one sentence; JSON is `{"message": …}` plus details.
/// - ``text(_:json:)``: text printed as it is (CKDB, help); JSON is given.
struct CommandOutput {
    /// The document `--json` prints, made only when it is printed.
    var json: () -> JSONValue
    /// The text for people, styled for where it goes.
    var text: (TextStyle) -> String

    /// A column of a ``rows(_:columns:whenEmpty:)`` table: the member `key` of each row,
    /// headed `header`; `whenNull` stands in for `null` or a missing member.
    struct Column {
        var key: String
        var header: String
        var whenNull = ""

        init(_ key: String, header: String? = nil, whenNull: String = "") {
            self.key = key
            self.header = header ?? key
            self.whenNull = whenNull
        }
    }

    /// A table of `rows` (JSON objects), one column per entry of `columns`; `whenEmpty` is
    /// printed instead of a table without rows. Columns whose values (or stand-ins) are all
    /// numbers are right-aligned.
    static func rows(_ rows: [JSONValue], columns: [Column], whenEmpty: String) -> CommandOutput {
        CommandOutput(json: { .array(rows) }) { style in table(rows, columns: columns, whenEmpty: whenEmpty, style: style) }
    }

    /// Records as a table of their fields (``rows(_:columns:whenEmpty:)``, one column per entry
    /// of `columns`); JSON is the array of their documents with their system fields.
    static func records(_ listing: RecordListing, columns: [Column], whenEmpty: String) -> CommandOutput {
        CommandOutput(json: { .array(listing.documents(systemFields: true)) }) { style in
            table(listing.documents(systemFields: false), columns: columns, whenEmpty: whenEmpty, style: style)
        }
    }

    /// The text of ``rows(_:columns:whenEmpty:)``: `whenEmpty` without rows, else the table, a
    /// column right-aligned when its values (or stand-ins) are all numbers and at least one is.
    private static func table(_ rows: [JSONValue], columns: [Column], whenEmpty: String, style: TextStyle) -> String {
        guard !rows.isEmpty else { return whenEmpty }
        var cells: [[String]] = []
        cells.reserveCapacity(rows.count)
        var hasNumber = [Bool](repeating: false, count: columns.count)
        var hasOther = [Bool](repeating: false, count: columns.count)
        let standInIsNumber = columns.map { Double($0.whenNull) != nil }
        for row in rows {
            var line: [String] = []
            line.reserveCapacity(columns.count)
            for (index, column) in columns.enumerated() {
                guard let value = row[column.key], value != .null else {
                    line.append(column.whenNull)
                    hasNumber[index] = hasNumber[index] || standInIsNumber[index]
                    continue
                }
                line.append(value.cellText)
                if value.isNumber { hasNumber[index] = true } else { hasOther[index] = true }
            }
            cells.append(line)
        }
        let numeric = Set(columns.indices.filter { hasNumber[$0] && !hasOther[$0] })
        return TextTable(header: columns.map(\.header), rows: cells, rightAligned: numeric).rendered(style: style)
    }

    /// One record, `key: value` per member of the object `record`, keys padded to one column.
    static func record(_ record: JSONValue) -> CommandOutput {
        CommandOutput(json: { record }) { style in
            guard case .object(let members) = record else { return record.cellText }
            let width = members.map { $0.key.displayWidth }.max() ?? 0
            return members.map { member in
                let label = member.key + ":" + String(repeating: " ", count: width - member.key.displayWidth)
                return style.header(label) + " " + member.value.detailText
            }
            .joined(separator: "\n")
        }
    }

    /// What a write did: `sentence` for people; `{"message": sentence, …details}` as JSON.
    static func message(_ sentence: String, _ details: KeyValuePairs<String, JSONValue> = [:]) -> CommandOutput {
        let members = [JSONValue.Member(key: "message", value: .string(sentence))] + details.map { JSONValue.Member(key: $0.key, value: $0.value) }
        return CommandOutput(json: { .object(members) }) { _ in sentence }
    }

    /// `text` printed as it is; `json` with `--json`.
    static func text(_ text: String, json: JSONValue) -> CommandOutput {
        CommandOutput(json: { json }) { _ in text }
    }
}

extension JSONValue {
    /// The text of a value in a table cell or after `key:`: strings on one line, numbers as
    /// written, lists joined with ", " (an object in one as its JSON), a record by its `name`,
    /// else its `recordName`, any other object by its values; `null` is blank.
    var cellText: String {
        switch self {
        case .null: return ""
        case .bool(let flag): return flag ? "true" : "false"
        case .number(let text): return text
        case .string(let text):
            // Nearly every cell is ASCII without a line break: kept as it is, without
            // breaking it into characters.
            let isPlain = text.utf8.allSatisfy { $0 < 0x80 && !(0x0A...0x0D).contains($0) }
            return isPlain ? text : String(text.map { $0.isNewline ? " " : $0 })
        case .array(let elements):
            // An element that is neither a record nor a single value (an asset, a location) is
            // its JSON: its own values joined like the list's would run into its neighbours'.
            return elements.map { $0.isRecordOrScalar ? $0.cellText : $0.text }.joined(separator: ", ")
        case .object(let members):
            if let name = self["name"], name != .null { return name.cellText }
            if let recordName = self["recordName"] { return recordName.cellText }
            return members.map(\.value.cellText).joined(separator: ", ")
        }
    }

    /// Whether this is a record (an object with a `recordName`) or not an object at all.
    private var isRecordOrScalar: Bool {
        guard case .object = self else { return true }
        return self["recordName"] != nil
    }

    /// The text of a value after `key:` in a ``CommandOutput/record(_:)``: as in a cell, but
    /// an object that is not a record (a stored request, a location) as its JSON.
    var detailText: String {
        if case .object = self, self["recordName"] == nil { return text }
        return cellText
    }

    var isNumber: Bool {
        if case .number = self { return true }
        return false
    }
}
