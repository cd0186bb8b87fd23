internal import CSQLite

/// The settings of the SQLite library that hold for the whole process, applied once before the
/// engine opens its first connection.
///
/// Memory statistics are off: with them, every allocation and free in SQLite takes one
/// process-wide mutex to count bytes that nothing in shop reads. Under the canonical query's
/// load on `POST /graphql` (four readers on two cores), locking and unlocking it was 6% of the
/// server's CPU, and turning it off served about 10% more requests (docs/bench.md).
enum SQLiteLibrary {
    /// Applies the settings, unless SQLite started before (another library in the process opened
    /// a connection first): it then keeps its own. Later calls do nothing.
    static func configure() {
        _ = configured
    }

    /// Run once, on first use. SQLite answers `SQLITE_MISUSE` when it started before; nothing
    /// is lost then but the speed, so the answer is not kept.
    private static let configured: Void = { _ = shop_sqlite3_disable_memory_statistics() }()
}
