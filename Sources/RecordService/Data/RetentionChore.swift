import Foundation
import Logging
import RecordKit

/// Removes what was kept longer than a retention window from every open database (a private
/// database closed meanwhile is caught up the next time it is open during a round), at start
/// and then every tenth of the window (at most hourly, at least a second apart). Two are run:
/// ``transactions(state:logger:)`` and ``changeLog(state:logger:)``.
struct RetentionChore: Chore {
    let logger: Logger
    let databases: DatabaseRegistry
    let window: Duration
    /// What `remove` removes, as the log says it: "expired transactions".
    let removed: String
    /// Removes from one database what was kept since before the cutoff; returns how many.
    let remove: @Sendable (RecordDatabase, Date) throws(RecordError) -> Int

    var interval: Duration { max(min(window / 10, .seconds(3600)), .seconds(1)) }

    func round() async {
        await removeKept(before: Date().addingTimeInterval(-Double(window.components.seconds)))
    }

    /// Removes, in every open database, what was kept since before `cutoff`.
    func removeKept(before cutoff: Date) async {
        for opened in await databases.openDatabases() {
            let (database, remove) = (opened.database, self.remove)
            do {
                let count = try await BlockingWork.run { () throws(RecordError) in try remove(database, cutoff) }
                if count > 0 { logger.info("removed \(removed)", metadata: ["count": "\(count)", "database": "\(opened.address)"]) }
            } catch {
                // The server stopping cancels the chore: nothing failed.
                if Task.isCancelled { return }
                logger.error("could not remove \(removed)", metadata: ["error": "\(error)", "database": "\(opened.address)"])
            }
        }
    }

    /// Forgets the stored transactions older than `--transaction-retention`.
    static func transactions(state: ServiceState, logger: Logger) -> RetentionChore {
        RetentionChore(
            logger: logger, databases: state.databases, window: state.configuration.transactionRetention, removed: "expired transactions"
        ) { database, cutoff throws(RecordError) in
            let expired = try database.transactions().filter { $0.createdAt < cutoff }
            for transaction in expired { try database.deleteTransaction(id: transaction.id) }
            return expired.count
        }
    }

    /// Keeps the change logs bounded: prunes what was logged before `--change-retention`
    /// (tombstones and superseded saves; see ``RecordDatabase/pruneChanges(olderThan:)``) in each
    /// open database and each of its custom zones. A sync token older than the window may then
    /// get `CHANGE_TOKEN_EXPIRED`.
    static func changeLog(state: ServiceState, logger: Logger) -> RetentionChore {
        RetentionChore(
            logger: logger, databases: state.databases, window: state.configuration.changeRetention, removed: "change-log entries past the retention window"
        ) { database, cutoff throws(RecordError) in
            try database.pruneChangesInEveryZone(olderThan: cutoff)
        }
    }
}
