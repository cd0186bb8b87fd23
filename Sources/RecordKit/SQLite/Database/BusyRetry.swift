import Foundation
internal import GRDB
internal import GRDBSQLite

/// Runs database work again when SQLite reports the file busy.
///
/// On the synchronous path the connection's busy handler (`busyMode = .timeout`) waits for most
/// locks, but SQLite returns `SQLITE_BUSY` at once in a few cases where waiting inside the
/// statement could deadlock: switching a new file to WAL while another process opens it too, a
/// read snapshot that went stale before a write, a reader meeting another connection's WAL
/// recovery. The remedy SQLite documents for those is to roll back and run the whole transaction
/// again, which is what ``run(for:_:)-(_,()->T)`` does, with a short random pause between attempts,
/// until ``timeout`` has passed since the first attempt.
///
/// The asynchronous path (``run(for:_:)-(_,()async->T)``) does not wait inside SQLite at all: its
/// writes turn the busy handler off (``failingFast(_:_:)``), so a lock held by another process
/// fails at once, and the retry suspends the task (`Task.sleep`) instead of blocking a thread.
///
/// The work must be safe to run more than once: a transaction body that only acts through its
/// transaction is (the failed attempt rolled back).
enum BusyRetry {
    /// How long to keep trying, in total; the same as the busy handler's own timeout, so a lock
    /// held for longer than that still fails (with `SQLITE_BUSY`, reported as busy).
    static let timeout: Duration = .seconds(10)

    /// ``timeout`` as the busy handler's timeout, for the connections' configurations.
    static var busyMode: Database.BusyMode { .timeout(TimeInterval(timeout.components.seconds)) }

    /// The result of `body`, run again while it fails with `SQLITE_BUSY` and `time` (from the
    /// first attempt) is not over; the thread sleeps between attempts.
    static func run<T>(for time: Duration = timeout, _ body: () throws -> T) throws -> T {
        var attempts = Attempts(time: time)
        while true {
            do {
                return try body()
            } catch let error as DatabaseError where attempts.mayRetry(after: error) {
                let pause = attempts.pause().components
                Thread.sleep(forTimeInterval: Double(pause.seconds) + Double(pause.attoseconds) / 1e18)
            }
        }
    }

    /// The result of `body`, run again while it fails with `SQLITE_BUSY` and `time` is not over;
    /// the task suspends between attempts, leaving its thread to other work.
    static func run<T>(for time: Duration = timeout, _ body: () async throws -> T) async throws -> T {
        var attempts = Attempts(time: time)
        while true {
            do {
                return try await body()
            } catch let error as DatabaseError where attempts.mayRetry(after: error) {
                try await Task.sleep(for: attempts.pause())
            }
        }
    }

    /// Runs `body` on `db` with SQLite's busy handler off, so a locked file fails with
    /// `SQLITE_BUSY` at once rather than blocking the thread, then turns it back on.
    /// (SQLite's `sqlite3_busy_timeout`, a call rather than a `PRAGMA` statement, which would
    /// be prepared again each time: that pragma acts when it is prepared, not when it runs.)
    static func failingFast<T>(_ db: Database, _ body: () throws -> T) throws -> T {
        sqlite3_busy_timeout(db.sqliteConnection, 0)
        defer { sqlite3_busy_timeout(db.sqliteConnection, Int32(timeout.components.seconds * 1000)) }
        return try body()
    }

    /// The attempts of one run: when to stop, and how long to pause before the next.
    private struct Attempts {
        let time: Duration
        let clock = ContinuousClock()
        let start = ContinuousClock().now
        var count = 0

        /// Whether `error` is a busy file and there is time left to try again.
        func mayRetry(after error: DatabaseError) -> Bool {
            error.resultCode == .SQLITE_BUSY && clock.now - start < time
        }

        /// 1–5 ms at first, growing to at most 50–250 ms, randomized so that processes
        /// retrying together do not collide again in step.
        mutating func pause() -> Duration {
            count += 1
            let ceiling = min(Double(count), 50) * 5
            return .microseconds(Int(Double.random(in: ceiling / 5...ceiling) * 1000))
        }
    }
}
