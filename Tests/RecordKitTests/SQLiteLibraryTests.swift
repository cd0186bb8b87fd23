import CSQLite
import RecordKit
import TestSupport
import Testing

@Suite struct SQLiteLibraryTests {
    /// Everything in the test process that opens a connection applies the setting first (the
    /// engine, and TestSupport's `SQLiteFile` beside it), so SQLite never counts a byte: with
    /// the statistics on, this count grows with every allocation.
    @Test func sqliteCountsNoMemoryOnceTheEngineHasOpenedADatabase() throws {
        let db = try RecordDatabase.inMemory(bootstrap: .shopping)
        _ = try db.create(Record("Lists", recordName: "L1", fields: ["name": .string("Groceries")]))
        #expect(try db.fetch(recordName: "L1")?.recordName == "L1")
        #expect(sqlite3_memory_used() == 0)
        #expect(sqlite3_memory_highwater(0) == 0)
    }
}
