import Foundation
import RecordKit

/// The benchmark's data: 100 lists and items whose names follow a Zipf-like spread over a
/// grocery vocabulary (many share their words, as real lists have), numbered so that they are
/// unique, as the shopping schema's `UNIQUE (list, name)` requires; the same for engine and raw
/// databases.
enum DataSet {
    static let listCount = 100

    static let adjectives = [
        "fresh", "organic", "frozen", "whole", "red", "green", "smoked", "dried", "sweet", "spicy",
        "large", "small", "local", "sliced", "raw", "roasted", "salted", "plain", "wild", "ripe",
    ]
    static let nouns = [
        "apples", "bread", "milk", "eggs", "cheese", "butter", "rice", "pasta", "tomatoes", "onions",
        "garlic", "potatoes", "carrots", "lettuce", "chicken", "beef", "salmon", "tuna", "beans", "lentils",
        "flour", "sugar", "salt", "pepper", "coffee", "tea", "juice", "yogurt", "cream", "oats",
        "bananas", "oranges", "lemons", "grapes", "berries", "spinach", "peppers", "mushrooms", "nuts", "honey",
    ]

    static func listName(_ index: Int) -> String { "L\(index)" }
    static func listRecordName(_ index: Int) -> String { "list-\(index)" }
    static func itemRecordName(_ index: Int) -> String { "item-\(index)" }

    /// The list item `index` belongs to.
    static func list(of index: Int) -> Int { index % listCount }

    /// The name of item `index`: a Zipf-like pick of words, so common words repeat a lot, and the
    /// index, so that no two items share a name.
    static func itemName(_ index: Int) -> String {
        var state = UInt64(truncatingIfNeeded: index) &* 0x9E37_79B9_7F4A_7C15 &+ 0x632B_E59B_D9B4_E019
        state = (state ^ (state >> 31)) &* 0xBF58_476D_1CE4_E5B9
        let uniform = Double(state >> 11) / Double(1 << 53)
        let noun = nouns[min(nouns.count - 1, Int(Double(nouns.count) * uniform * uniform))]
        let adjective = adjectives[Int(state % UInt64(adjectives.count))]
        return "\(adjective) \(noun) \(index)"
    }

    static func listRecord(_ index: Int) -> Record {
        Record("Lists", recordName: listRecordName(index), fields: ["name": .string(listName(index))])
    }

    static func itemRecord(_ index: Int, list: Int? = nil) -> Record {
        Record(
            "Items", recordName: itemRecordName(index),
            fields: [
                "name": .string(itemName(index)),
                "list": .reference(Reference(listRecordName(list ?? self.list(of: index)), action: .deleteSelf)),
            ])
    }

    /// The raw baseline's tables: the same rows, with the indexes a hand-written program needs
    /// to do what the shopping schema's index flags promise — look items up by recordName, list
    /// a list's items by name (`list QUERYABLE` with `name SORTABLE`), and find or sort items by
    /// name (`name QUERYABLE SORTABLE`) — each chosen for its queries, not copied from the engine —
    /// and the unique indexes that keep the schema's rules (list names, item names within a
    /// list). Writes pay for every one of them, on both sides.
    static let rawSchema = """
        CREATE TABLE lists (id INTEGER PRIMARY KEY, recordName TEXT NOT NULL UNIQUE, name TEXT);
        CREATE TABLE items (id INTEGER PRIMARY KEY, recordName TEXT NOT NULL UNIQUE, name TEXT, list TEXT, number INTEGER);
        CREATE INDEX items_list_name ON items (list, name, recordName);
        CREATE INDEX items_name ON items (name, recordName);
        CREATE UNIQUE INDEX lists_unique_name ON lists (name) WHERE name IS NOT NULL;
        CREATE UNIQUE INDEX items_unique_list_name ON items (list, name) WHERE list IS NOT NULL AND name IS NOT NULL;
        """

    /// Fills an engine database (shopping schema plus `number`) with the lists and items `range`.
    static func fillEngine(_ db: RecordDatabase, items range: Range<Int>) throws {
        if try db.fetch(recordName: listRecordName(0)) == nil {
            try db.modify((0..<listCount).map { .create(listRecord($0)) })
        }
        for start in stride(from: range.lowerBound, to: range.upperBound, by: 100_000) {
            let end = min(start + 100_000, range.upperBound)
            try db.modify((start..<end).map { .create(itemRecord($0)) })
        }
    }

    /// Fills a raw database with the same rows.
    static func fillRaw(_ raw: RawSQLite, items range: Range<Int>) throws {
        let insertList = try raw.prepare("INSERT OR IGNORE INTO lists (recordName, name) VALUES (?, ?)")
        let insertItem = try raw.prepare("INSERT INTO items (recordName, name, list) VALUES (?, ?, ?)")
        try raw.transaction {
            for list in 0..<listCount { try insertList.run([listRecordName(list), listName(list)]) }
            for index in range { try insertItem.run([itemRecordName(index), itemName(index), listRecordName(list(of: index))]) }
        }
    }
}
