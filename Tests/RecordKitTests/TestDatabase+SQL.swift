import GRDB

@testable import RecordKit

/// Raw SQL looks at a database, for assertions about storage.
extension RecordDatabase {
    /// Every row of every table (record tables and the engine's own), as text, for
    /// "nothing changed" assertions.
    func contentDump() throws -> [String] {
        try writer.read { db in
            let tables = try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name")
            return try tables.flatMap { table in
                try Row.fetchAll(db, sql: "SELECT * FROM \"\(table)\" ORDER BY 1").map { "\(table): \($0)" }
            }
        }
    }

    /// The number of pages of the database file.
    func pageCount() throws -> Int {
        try writer.read { db in try Int.fetchOne(db, sql: "PRAGMA page_count") ?? 0 }
    }

    /// The number of rows in `table`.
    func count(_ table: String) throws -> Int {
        try writer.read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM \"\(table)\"") ?? 0 }
    }
}

/// Raw SQL on a database file while no `RecordDatabase` has it open, to make files as other
/// versions wrote them.
extension TemporaryDatabase {
    func executeSQL(_ sql: String) throws {
        let queue = try DatabaseQueue(path: path)
        try queue.write { try $0.execute(sql: sql) }
        try queue.close()
    }

    func fetchStrings(_ sql: String) throws -> [String] {
        let queue = try DatabaseQueue(path: path)
        defer { try? queue.close() }
        return try queue.read { try String.fetchAll($0, sql: sql) }
    }
}
