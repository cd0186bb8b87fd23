import Foundation
import Logging
import RecordKit
import ServiceLifecycle

/// Forgets stored transactions older than the retention window, in every open public database,
/// at start and then every tenth of the window (at most hourly).
struct TransactionRetention: Service {
    let state: ServiceState
    let logger: Logger

    func run() async throws {
        let retention = state.configuration.transactionRetention
        let interval = max(min(retention / 10, .seconds(3600)), .seconds(1))
        // A graceful shutdown cancels the wait for the next round.
        try? await cancelWhenGracefulShutdown {
            while !Task.isCancelled {
                await purge(olderThan: Date().addingTimeInterval(-Double(retention.components.seconds)))
                try await Task.sleep(for: interval)
            }
        }
    }

    /// Deletes the transactions stored before `cutoff`.
    func purge(olderThan cutoff: Date) async {
        for environment in ServiceEnvironment.allCases {
            do {
                let database = try await state.databases.database(DatabaseAddress(environment: environment, scope: .public)).database
                let removed = try await BlockingWork.run { () throws(RecordError) in
                    let expired = try database.transactions().filter { $0.createdAt < cutoff }
                    for transaction in expired { try database.deleteTransaction(id: transaction.id) }
                    return expired.count
                }
                if removed > 0 { logger.info("forgot expired transactions", metadata: ["count": "\(removed)", "database": "\(environment.rawValue)/public"]) }
            } catch {
                logger.error("could not forget expired transactions", metadata: ["error": "\(error)"])
            }
        }
    }
}
