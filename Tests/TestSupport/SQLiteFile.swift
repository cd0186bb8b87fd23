import CSQLite

/// A database file opened with SQLite's C API, beside the engine: for tests that check the file
/// itself (`PRAGMA integrity_check`) or shape it as another version of the program left it.
public final class SQLiteFile {
    private var handle: OpaquePointer?
    private let path: String

    /// Opens the file at `path` (made when `creating` and missing); a statement waits up to 10 s
    /// for another connection's lock.
    public init(path: String, creating: Bool = false) throws(SQLiteFileError) {
        self.path = path
        // The engine's process-wide setting, applied here too: SQLite takes it only before its
        // first connection, whichever of the two opens it.
        _ = shop_sqlite3_disable_memory_statistics()
        let flags = SQLITE_OPEN_READWRITE | (creating ? SQLITE_OPEN_CREATE : 0)
        guard sqlite3_open_v2(path, &handle, flags, nil) == SQLITE_OK else {
            let error = SQLiteFileError("cannot open \(path): \(message)")
            sqlite3_close_v2(handle)
            throw error
        }
        sqlite3_busy_timeout(handle, 10_000)
    }

    deinit {
        sqlite3_close_v2(handle)
    }

    private var message: String { String(cString: sqlite3_errmsg(handle)) }

    /// Runs `sql`, one or more statements separated by semicolons.
    public func execute(_ sql: String) throws(SQLiteFileError) {
        guard sqlite3_exec(handle, sql, nil, nil, nil) == SQLITE_OK else {
            throw SQLiteFileError("\(path): \(sql): \(message)")
        }
    }

    /// The first column of every row `sql` returns, as text (`NULL` for a null).
    public func strings(_ sql: String) throws(SQLiteFileError) -> [String] {
        var statement: OpaquePointer?
        guard sqlite3_prepare_v2(handle, sql, -1, &statement, nil) == SQLITE_OK else {
            throw SQLiteFileError("\(path): \(sql): \(message)")
        }
        defer { sqlite3_finalize(statement) }
        var values: [String] = []
        while true {
            switch sqlite3_step(statement) {
            case SQLITE_ROW:
                values.append(sqlite3_column_text(statement, 0).map { String(cString: $0) } ?? "NULL")
            case SQLITE_DONE:
                return values
            default:
                throw SQLiteFileError("\(path): \(sql): \(message)")
            }
        }
    }
}

/// What SQLite said when a ``SQLiteFile`` could not be opened or a statement failed.
public struct SQLiteFileError: Error, CustomStringConvertible {
    public let description: String

    init(_ description: String) {
        self.description = description
    }
}
