import Foundation

/// A script of single-record commands for `shop -f`, and the same work as SQL for the `sqlite3`
/// shell: one statement per command, each in autocommit, as shop runs each command in its own
/// transaction.
///
/// The lines: `schema add-field Items number INT64`, one `list add` per list of the data set,
/// then items spread over the lists, every third line an `item set … number=N` of the item added
/// just before, the others `item add`. Item names are unique within a list (shop requires it).
struct CommandScript {
    let commands: Int

    var listCount: Int { DataSet.listCount }
    var itemLines: Int { commands - 1 - listCount }
    var updates: Int { itemLines / 3 }
    var additions: Int { itemLines - updates }

    init(commands: Int) {
        precondition(commands > 1 + DataSet.listCount, "a script needs room for its lists")
        self.commands = commands
    }

    /// What line `index` (from 0) of the item lines does.
    private enum ItemLine {
        case add(list: String, name: String)
        case set(list: String, name: String, number: Int)
    }

    private func itemLine(_ index: Int) -> ItemLine {
        func item(_ index: Int) -> (list: String, name: String) {
            (DataSet.listName(index % listCount), DataSet.itemName(index))
        }
        if index % 3 == 2 {
            let previous = item(index - 1)
            return .set(list: previous.list, name: previous.name, number: index)
        }
        let added = item(index)
        return .add(list: added.list, name: added.name)
    }

    /// The script in shop's command language.
    var shop: String {
        var lines = ["schema add-field Items number INT64"]
        lines += (0..<listCount).map { "list add \(DataSet.listName($0))" }
        lines += (0..<itemLines).map { index in
            switch itemLine(index) {
            case .add(let list, let name): "item add \(list) '\(name)'"
            case .set(let list, let name, let number): "item set \(list) '\(name)' number=\(number)"
            }
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// The same for the sqlite3 shell, after creating what a new shop database has: the tables,
    /// the uniqueness shop checks as indexes, references checked as foreign keys, the index on
    /// item names that the shopping schema's `name QUERYABLE SORTABLE` promises (as
    /// ``DataSet/rawSchema`` has it: writes pay for every index the flags promise, on both
    /// sides), WAL with `synchronous = NORMAL`. recordNames are random, as shop's UUIDs are.
    var sql: String {
        var lines = [
            "PRAGMA journal_mode = WAL;",
            "PRAGMA synchronous = NORMAL;",
            "PRAGMA foreign_keys = ON;",
            "CREATE TABLE lists (id INTEGER PRIMARY KEY, recordName TEXT NOT NULL UNIQUE, name TEXT NOT NULL UNIQUE);",
            """
            CREATE TABLE items (id INTEGER PRIMARY KEY, recordName TEXT NOT NULL UNIQUE, name TEXT NOT NULL, \
            list TEXT NOT NULL REFERENCES lists (recordName) ON DELETE CASCADE, UNIQUE (list, name));
            """,
            "CREATE INDEX items_name ON items (name, recordName);",
            "ALTER TABLE items ADD COLUMN number INTEGER;",
        ]
        let newRecordName = "lower(hex(randomblob(16)))"
        func list(_ name: String) -> String { "(SELECT recordName FROM lists WHERE name = '\(name)')" }
        lines += (0..<listCount).map { "INSERT INTO lists (recordName, name) VALUES (\(newRecordName), '\(DataSet.listName($0))');" }
        lines += (0..<itemLines).map { index in
            switch itemLine(index) {
            case .add(let listName, let name):
                "INSERT INTO items (recordName, name, list) VALUES (\(newRecordName), '\(name)', \(list(listName)));"
            case .set(let listName, let name, let number):
                "UPDATE items SET number = \(number) WHERE list = \(list(listName)) AND name = '\(name)';"
            }
        }
        return lines.joined(separator: "\n") + "\n"
    }
}
