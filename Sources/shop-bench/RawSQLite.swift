import CSQLite
import Foundation

/// SQLite's C API used directly: the baseline every engine figure is compared with.
/// Prepared statements, bound values, explicit transactions — what a careful hand-written
/// program would do, with nothing of the engine in between.
final class RawSQLite {
    private var handle: OpaquePointer?

    init(path: String) throws {
        // The engine's process-wide setting: both sides of a ratio run with the same library,
        // whichever opens its first connection first.
        _ = shop_sqlite3_disable_memory_statistics()
        guard sqlite3_open_v2(path, &handle, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, nil) == SQLITE_OK else {
            throw BenchError("cannot open \(path): \(message)")
        }
        try execute("PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL")
    }

    deinit {
        sqlite3_close_v2(handle)
    }

    var message: String { String(cString: sqlite3_errmsg(handle)) }

    func execute(_ sql: String) throws {
        guard sqlite3_exec(handle, sql, nil, nil, nil) == SQLITE_OK else { throw BenchError("\(sql): \(message)") }
    }

    func prepare(_ sql: String) throws -> Statement {
        var statement: OpaquePointer?
        guard sqlite3_prepare_v3(handle, sql, -1, UInt32(SQLITE_PREPARE_PERSISTENT), &statement, nil) == SQLITE_OK, let statement else {
            throw BenchError("\(sql): \(message)")
        }
        return Statement(statement, database: self)
    }

    func transaction(_ body: () throws -> Void) throws {
        try execute("BEGIN IMMEDIATE")
        do {
            try body()
            try execute("COMMIT")
        } catch {
            try? execute("ROLLBACK")
            throw error
        }
    }

    /// A prepared statement: bind, step, read columns, reset.
    final class Statement {
        private let statement: OpaquePointer
        private unowned let database: RawSQLite

        init(_ statement: OpaquePointer, database: RawSQLite) {
            self.statement = statement
            self.database = database
        }

        deinit {
            sqlite3_finalize(statement)
        }

        func bind(_ values: [Any?]) {
            sqlite3_reset(statement)
            sqlite3_clear_bindings(statement)
            for (offset, value) in values.enumerated() {
                let index = Int32(offset + 1)
                switch value {
                case let text as String: sqlite3_bind_text(statement, index, text, -1, transient)
                case let number as Int: sqlite3_bind_int64(statement, index, Int64(number))
                case let number as Int64: sqlite3_bind_int64(statement, index, number)
                case let number as Double: sqlite3_bind_double(statement, index, number)
                default: sqlite3_bind_null(statement, index)
                }
            }
        }

        /// Steps once; true while a row is available.
        func step() throws -> Bool {
            switch sqlite3_step(statement) {
            case SQLITE_ROW: return true
            case SQLITE_DONE: return false
            default: throw BenchError("step: \(database.message)")
            }
        }

        /// Runs to completion (for writes).
        func run(_ values: [Any?]) throws {
            bind(values)
            while try step() {}
        }

        func text(_ column: Int32) -> String? {
            guard let pointer = sqlite3_column_text(statement, column) else { return nil }
            return String(cString: pointer)
        }

        /// The bytes of a text column, without making a `String` of them; `nil` for NULL.
        func withText<T>(_ column: Int32, _ body: (UnsafeBufferPointer<UInt8>) throws -> T) rethrows -> T? {
            guard let pointer = sqlite3_column_text(statement, column) else { return nil }
            return try body(UnsafeBufferPointer(start: pointer, count: Int(sqlite3_column_bytes(statement, column))))
        }

        func int64(_ column: Int32) -> Int64 { sqlite3_column_int64(statement, column) }

        func isNull(_ column: Int32) -> Bool { sqlite3_column_type(statement, column) == SQLITE_NULL }
    }
}

/// SQLite's "copy this now" destructor, for binding Swift strings.
private let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)

struct BenchError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
