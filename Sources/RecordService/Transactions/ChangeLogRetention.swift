import Foundation
import Logging
import RecordKit
import ServiceLifecycle

/// Keeps the change logs bounded: prunes what was logged before the retention window
/// (tombstones and superseded saves; see ``RecordDatabase/pruneChanges(olderThan:)``) in every
/// open database — the public ones, the users' private ones open at the time — and each of
/// their custom zones, at start and then every tenth of the window (at most hourly, at least
/// every second). A sync token older than the window may then get `CHANGE_TOKEN_EXPIRED`.
struct ChangeLogRetention: Service {
    let state: ServiceState
    let logger: Logger

    func run() async throws {
        let retention = state.configuration.changeRetention
        let interval = max(min(retention / 10, .seconds(3600)), .seconds(1))
        // A graceful shutdown cancels the wait for the next round.
        try? await cancelWhenGracefulShutdown {
            while !Task.isCancelled {
                await prune(olderThan: Date().addingTimeInterval(-Double(retention.components.seconds)))
                try await Task.sleep(for: interval)
            }
        }
    }

    /// Prunes the entries logged before `cutoff`.
    func prune(olderThan cutoff: Date) async {
        for opened in await state.databases.openDatabases() {
            do {
                let database = opened.database
                let removed = try await BlockingWork.run { () throws(RecordError) in try database.pruneChangesInEveryZone(olderThan: cutoff) }
                if removed > 0 { logger.info("pruned the change log", metadata: ["count": "\(removed)", "database": "\(opened.address)"]) }
            } catch {
                logger.error("could not prune the change log", metadata: ["error": "\(error)", "database": "\(opened.address)"])
            }
        }
    }
}
