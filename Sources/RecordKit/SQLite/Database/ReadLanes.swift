import Dispatch
import Synchronization

/// The threads a database's async reads run on: one serial queue per reader connection, each
/// read sent to the lane with the fewest reads waiting.
///
/// A lane reads through GRDB's synchronous pool access, which runs the read on the lane's own
/// thread (`DispatchQueue.sync` on an idle reader), and takes the next waiting read on the same
/// thread. With no more lanes than readers, a lane never waits for a reader the pool is lending
/// out, and a read costs one thread switch there and one back to the task; GRDB's asynchronous
/// access waits for a reader on a queue of its own first, then switches to the reader's queue,
/// a switch and a semaphore wake-up more for every read.
final class ReadLanes: Sendable {
    private let queues: [DispatchQueue]
    private let waiting: Mutex<[Int]>

    /// `count` lanes (at least one): as many as the database has connections to read on.
    init(count: Int) {
        let count = max(count, 1)
        queues = (0..<count).map { DispatchQueue(label: "shop.read-lane.\($0)") }
        waiting = Mutex(Array(repeating: 0, count: count))
    }

    /// Runs `work` on the lane with the fewest reads waiting, then hands its outcome to
    /// `deliver` on the same thread once the lane counts the read as done: a task resumed by
    /// `deliver` that reads again at once finds this lane free, not still busy with its last read.
    func run<Outcome>(_ work: @escaping @Sendable () -> Outcome, then deliver: @escaping @Sendable (Outcome) -> Void) {
        let lane = waiting.withLock { waiting in
            let lane = waiting.indices.min { waiting[$0] < waiting[$1] } ?? 0
            waiting[lane] += 1
            return lane
        }
        queues[lane].async { [self] in
            let outcome = work()
            waiting.withLock { $0[lane] -= 1 }
            deliver(outcome)
        }
    }
}
