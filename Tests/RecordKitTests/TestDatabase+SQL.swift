import TestSupport

@testable import RecordKit

/// Raw SQL looks at a database, for assertions about storage.
extension RecordDatabase {
    /// Every row of every table (record tables and the engine's own), as text, for
    /// "nothing changed" assertions.
    func contentDump() throws -> [String] {
        let tables = try rawRows("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name")
        return try tables.flatMap { table in
            try rawRows("SELECT * FROM \"\(table[0])\" ORDER BY 1").map { "\(table[0]): \($0.joined(separator: ", "))" }
        }
    }

    /// The number of pages of the database file.
    func pageCount() throws -> Int {
        Int(try rawRows("PRAGMA page_count").first?.first ?? "") ?? 0
    }

    /// The number of rows in `table`.
    func count(_ table: String) throws -> Int {
        Int(try rawRows("SELECT count(*) FROM \"\(table)\"").first?.first ?? "") ?? 0
    }
}

/// Raw SQL on a database file while no `RecordDatabase` has it open, to make files as other
/// versions wrote them.
extension TemporaryDatabase {
    func executeSQL(_ sql: String) throws {
        try SQLiteFile(path: path).execute(sql)
    }

    func fetchStrings(_ sql: String) throws -> [String] {
        try SQLiteFile(path: path).strings(sql)
    }
}
