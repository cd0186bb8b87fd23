import Foundation
import Logging
import RecordKit

/// Keeps the change logs bounded: prunes what was logged before the retention window
/// (tombstones and superseded saves; see ``RecordDatabase/pruneChanges(olderThan:)``) in every
/// open database — the public ones, the users' private ones open at the time — and each of
/// their custom zones, at start and then every tenth of the window (at most hourly, at least a
/// second apart). A sync token older than the window may then get `CHANGE_TOKEN_EXPIRED`.
struct ChangeLogRetention: Chore {
    let state: ServiceState
    let logger: Logger

    var interval: Duration { max(min(state.configuration.changeRetention / 10, .seconds(3600)), .seconds(1)) }

    func round() async {
        await prune(olderThan: Date().addingTimeInterval(-Double(state.configuration.changeRetention.components.seconds)))
    }

    /// Prunes the entries logged before `cutoff`.
    func prune(olderThan cutoff: Date) async {
        for opened in await state.databases.openDatabases() {
            let database = opened.database
            do {
                let removed = try await BlockingWork.run { () throws(RecordError) in try database.pruneChangesInEveryZone(olderThan: cutoff) }
                if removed > 0 { logger.info("pruned the change log", metadata: ["count": "\(removed)", "database": "\(opened.address)"]) }
            } catch {
                logger.error("could not prune the change log", metadata: ["error": "\(error)", "database": "\(opened.address)"])
            }
        }
    }
}
