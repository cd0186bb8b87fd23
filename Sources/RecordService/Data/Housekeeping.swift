import ServiceLifecycle

/// A piece of work the service repeats on its own while it runs.
protocol Chore: Sendable {
    /// How long to wait after one round before the next.
    var interval: Duration { get }
    /// One round of the work; it reports its own failures (the next round tries again).
    func round() async
}

/// Runs each chore at start and then every chore's ``Chore/interval``, each on its own
/// schedule, until a graceful shutdown cancels the waits.
struct Housekeeping: Service {
    let chores: [any Chore]

    func run() async throws {
        let chores = self.chores
        await cancelWhenGracefulShutdown {
            await withDiscardingTaskGroup { group in
                for chore in chores {
                    group.addTask {
                        while !Task.isCancelled {
                            await chore.round()
                            try? await Task.sleep(for: chore.interval)
                        }
                    }
                }
            }
        }
    }
}
