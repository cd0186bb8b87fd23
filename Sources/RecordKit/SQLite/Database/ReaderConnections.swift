import Foundation
internal import GRDB

/// How many reader connections a file database keeps, and how much each one caches.
///
/// ``standard`` suits a process that reads a few things and exits (the REPL, a script): GRDB's
/// five readers with SQLite's 2 MiB page cache each. ``service`` suits a long-running server that
/// reads the same pages again and again: reads are CPU work on cached pages, so one reader a core
/// (at least 2, so one long read never holds up every other; at most 4), as more readers than
/// cores only add thread switches and each keeps a cache of its own to fill; and 16 MiB of cache
/// each. Rows of one list lie scattered over a large table, and a page not in the cache is a
/// `pread` and a copy out of the kernel: on 2 cores with 1,000,000 items, `POST /graphql` of the
/// canonical query served about 6,800 requests/s with the standard readers and about 9,600 with
/// the service's (docs/bench.md). A cache fills only with pages read, so a small database costs
/// no more; a one-shot command would only pay to fill it, which is why it is not the standard.
public struct ReaderConnections: Sendable, Hashable {
    /// The most reader connections open at once.
    public let count: Int
    /// Each reader's page cache in KiB, or `nil` for SQLite's default (2 MiB).
    public let pageCacheKiB: Int?

    private init(count: Int, pageCacheKiB: Int? = nil) {
        self.count = count
        self.pageCacheKiB = pageCacheKiB
    }

    /// GRDB's five readers with SQLite's page cache: for a short-lived process.
    public static let standard = ReaderConnections(count: 5)

    /// One reader a core, 2 to 4, with 16 MiB of page cache each: for a service.
    public static let service = ReaderConnections(
        count: min(max(ProcessInfo.processInfo.activeProcessorCount, 2), 4), pageCacheKiB: 16 * 1024)

    /// Sets the number of readers in `configuration`.
    func configure(_ configuration: inout Configuration) {
        configuration.maximumReaderCount = count
    }

    /// Gives `db` the readers' page cache when it is a reader connection (GRDB opens those
    /// read-only); the writer keeps SQLite's default.
    func prepare(_ db: Database) throws {
        guard db.configuration.readonly, let pageCacheKiB else { return }
        try db.execute(sql: "PRAGMA cache_size = -\(pageCacheKiB)")
    }
}
