import Synchronization

/// The results waiting to be sent to one subscriber, at most ``capacity``: the bounded buffer
/// between a live query, which produces a result after each commit that changes it, and the
/// connection that sends them. A subscriber that falls ``capacity`` results behind is not sent
/// more: the buffer overflows, and its connection is closed with a clear reason.
final class SubscriberBuffer: Sendable {
    /// What the sender finds when it takes from the buffer.
    struct Batch: Sendable {
        /// The results to send, oldest first.
        var results: [String]
        /// The producer fell ``capacity`` results ahead: send `results`, then close.
        var overflowed: Bool
        /// The producer finished: send `results`, then complete.
        var ended: Bool
        /// Nothing happened since the last take but the keep-alive pulse.
        var pulse: Bool
    }

    private struct State {
        var waiting: [String] = []
        var overflowed = false
        var ended = false
        var pulse = false
    }

    /// The most results waiting at once.
    let capacity: Int
    private let state = Mutex(State())
    /// Woken whenever there is something to take (at most one wake-up pending).
    let wakeups: AsyncStream<Void>
    private let wakeup: AsyncStream<Void>.Continuation

    init(capacity: Int) {
        self.capacity = max(1, capacity)
        (wakeups, wakeup) = AsyncStream<Void>.makeStream(bufferingPolicy: .bufferingNewest(1))
    }

    /// What became of a pushed result.
    enum Push: Equatable {
        case taken
        /// The buffer was full: it overflows now, and takes nothing after.
        case overflowed
        /// The buffer had overflowed or ended before.
        case refused
    }

    /// Adds `result`, unless the buffer is full (it overflows then) or finished.
    func push(_ result: String) -> Push {
        let outcome = state.withLock { state -> Push in
            guard !state.overflowed, !state.ended else { return .refused }
            guard state.waiting.count < capacity else {
                state.overflowed = true
                return .overflowed
            }
            state.waiting.append(result)
            return .taken
        }
        wakeup.yield()
        return outcome
    }

    /// No more results will come (the server is shutting down): the sender completes.
    func end() {
        state.withLock { $0.ended = true }
        wakeup.yield()
    }

    /// Asks the sender to show the connection is alive (a keep-alive comment).
    func pulse() {
        state.withLock { $0.pulse = true }
        wakeup.yield()
    }

    /// Everything waiting, now taken.
    func take() -> Batch {
        state.withLock { state in
            defer {
                state.waiting.removeAll()
                state.pulse = false
            }
            return Batch(results: state.waiting, overflowed: state.overflowed, ended: state.ended, pulse: state.pulse)
        }
    }
}
