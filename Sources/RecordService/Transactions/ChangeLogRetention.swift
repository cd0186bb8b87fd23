import Foundation
import Logging
import RecordKit
import ServiceLifecycle

/// Keeps the change log of every open public database bounded: prunes what was logged before
/// the retention window (tombstones and superseded saves; see ``RecordDatabase/pruneChanges(olderThan:)``),
/// at start and then every tenth of the window (at most hourly). A sync token older than the
/// window may then get `CHANGE_TOKEN_EXPIRED`.
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
        for environment in ServiceEnvironment.allCases {
            do {
                let database = try await state.databases.database(DatabaseAddress(environment: environment, scope: .public)).database
                let removed = try await BlockingWork.run { () throws(RecordError) in try database.pruneChanges(olderThan: cutoff) }
                if removed > 0 { logger.info("pruned the change log", metadata: ["count": "\(removed)", "database": "\(environment.rawValue)/public"]) }
            } catch {
                logger.error("could not prune the change log", metadata: ["error": "\(error)"])
            }
        }
    }
}
