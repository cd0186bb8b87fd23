import Foundation
import Synchronization
import Testing

@testable import RecordKit

@Suite struct ReaderConnectionsTests {
    /// A service's readers have a page cache large enough to hold a busy service's working set,
    /// not SQLite's 2 MiB; its writer, and every connection of a standard database (the REPL's),
    /// keep SQLite's default.
    @Test func aServiceDatabaseReadsWithSixteenMebibytesOfCacheAndTheREPLsWithSQLitesDefault() throws {
        let file = TemporaryDatabase()
        let service = try RecordDatabase(path: file.path, bootstrap: Shopping.schemaWithoutRules, readers: .service)
        #expect(try service.rawRows("PRAGMA cache_size") == [["-16384"]])
        #expect(try service.rawRowsOnWriter("PRAGMA cache_size") == [["-2000"]])
        let standard = try RecordDatabase(path: file.path, bootstrap: Shopping.schemaWithoutRules)
        #expect(try standard.rawRows("PRAGMA cache_size") == [["-2000"]])
    }

    /// A custom zone's database reads as its parent does.
    @Test func aZoneOfAServiceDatabaseReadsAsItsParentDoes() throws {
        let file = TemporaryDatabase()
        let service = try RecordDatabase(path: file.path, bootstrap: Shopping.schemaWithoutRules, readers: .service)
        _ = try service.createZone("Trips")
        #expect(try service.zone("Trips").database.readers == .service)
        #expect(try service.zone("Trips").database.rawRows("PRAGMA cache_size") == [["-16384"]])
    }

    /// A service's database keeps one reader a core, at least 2 and at most 4: as many reads as that run
    /// at once (more readers than cores only switch threads, each with its own cache to fill).
    @Test func aServiceDatabaseKeepsOneReaderPerCoreBetweenTwoAndFour() throws {
        let cores = ProcessInfo.processInfo.activeProcessorCount
        let count = ReaderConnections.service.count
        #expect(count == min(max(cores, 2), 4))
        let file = TemporaryDatabase()
        let db = try RecordDatabase(path: file.path, bootstrap: Shopping.schemaWithoutRules, readers: .service)
        let running = RunningReads()
        let release = DispatchSemaphore(value: 0)
        let finished = DispatchGroup()
        // Threads of their own, not tasks: each read blocks its thread while it waits.
        for _ in 0..<count + 1 {
            DispatchQueue.global().async(group: finished) {
                do {
                    try db.performRead { _ in
                        running.begin()
                        _ = release.wait(timeout: .now() + 600)
                        running.end()
                    }
                } catch {
                    running.fail(error)
                }
            }
        }
        // Every reader connection busy; the read past them waits for one.
        let deadline = Date().addingTimeInterval(600)
        while running.peak < count, running.failures.isEmpty, Date() < deadline { Thread.sleep(forTimeInterval: 0.01) }
        Thread.sleep(forTimeInterval: 0.2)
        #expect(running.peak == count)
        for _ in 0...count { release.signal() }
        finished.wait()
        #expect(running.peak == count)
        #expect(running.failures.isEmpty)
    }
}

/// How many reads run at once now, the most so far, and the reads that failed.
private final class RunningReads: Sendable {
    private let state = Mutex((now: 0, peak: 0, failures: [String]()))

    var peak: Int { state.withLock { $0.peak } }
    var failures: [String] { state.withLock { $0.failures } }

    func fail(_ error: any Error) {
        state.withLock { $0.failures.append("\(error)") }
    }

    func begin() {
        state.withLock { state in
            state.now += 1
            state.peak = max(state.peak, state.now)
        }
    }

    func end() {
        state.withLock { $0.now -= 1 }
    }
}
