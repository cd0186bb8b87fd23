import Foundation
import Logging
import RecordKit

/// Forgets stored transactions older than the retention window, in every open database (a
/// private database closed meanwhile is caught up the next time it is open during a round), at
/// start and then every tenth of the window (at most hourly, at least a second apart).
struct TransactionRetention: Chore {
    let state: ServiceState
    let logger: Logger

    var interval: Duration { max(min(state.configuration.transactionRetention / 10, .seconds(3600)), .seconds(1)) }

    func round() async {
        await purge(olderThan: Date().addingTimeInterval(-Double(state.configuration.transactionRetention.components.seconds)))
    }

    /// Deletes the transactions stored before `cutoff`.
    func purge(olderThan cutoff: Date) async {
        for opened in await state.databases.openDatabases() {
            let database = opened.database
            do {
                let removed = try await BlockingWork.run { () throws(RecordError) in
                    let expired = try database.transactions().filter { $0.createdAt < cutoff }
                    for transaction in expired { try database.deleteTransaction(id: transaction.id) }
                    return expired.count
                }
                if removed > 0 { logger.info("forgot expired transactions", metadata: ["count": "\(removed)", "database": "\(opened.address)"]) }
            } catch {
                logger.error("could not forget expired transactions", metadata: ["error": "\(error)", "database": "\(opened.address)"])
            }
        }
    }
}
