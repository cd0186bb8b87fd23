import Foundation
import GRDB

/// Runs database work again when SQLite reports the file busy although a busy timeout is set.
///
/// The connection's busy handler (`busyMode = .timeout`) waits for most locks, but SQLite
/// returns `SQLITE_BUSY` at once in a few cases where waiting inside the statement could
/// deadlock: switching a new file to WAL while another process opens it too, a read snapshot
/// that went stale before a write, a reader meeting another connection's WAL recovery. The
/// remedy SQLite documents for those is to roll back and run the whole transaction again, which
/// is what this does, with a short random pause between attempts, until ``timeout`` has passed
/// since the first attempt. The work must therefore be safe to run more than once: a
/// transaction body that only acts through its transaction is (the failed attempt rolled back).
enum BusyRetry {
    /// How long to keep trying, in total; the same as the busy handler's own timeout, so a lock
    /// held for longer than that still fails (with `SQLITE_BUSY`, reported as busy).
    static let timeout: Duration = .seconds(10)

    /// ``timeout`` as the busy handler's timeout, for the connections' configurations.
    static var busyMode: Database.BusyMode { .timeout(TimeInterval(timeout.components.seconds)) }

    /// The result of `body`, run again while it fails with `SQLITE_BUSY` and time is left.
    static func run<T>(_ body: () throws -> T) throws -> T {
        let clock = ContinuousClock()
        let start = clock.now
        var attempt = 0
        while true {
            do {
                return try body()
            } catch let error as DatabaseError where error.resultCode == .SQLITE_BUSY && clock.now - start < timeout {
                attempt += 1
                // 1–5 ms at first, growing to at most 50–250 ms, randomized so that processes
                // retrying together do not collide again in step.
                let ceiling = min(Double(attempt), 50) * 5
                Thread.sleep(forTimeInterval: Double.random(in: ceiling / 5...ceiling) / 1000)
            }
        }
    }
}
