import Synchronization

/// A fixed number of places that async work takes in turn, first come first served: work
/// beyond them suspends (it never blocks a thread) until a place is left. Work cancelled while
/// it waits leaves the queue at once and never takes a place.
final class AdmissionGate: Sendable {
    private struct Waiter {
        var id: UInt64
        var place: CheckedContinuation<Void, any Error>
    }

    private struct State {
        var free: Int
        var waiting: [Waiter] = []
        var nextID: UInt64 = 0
    }

    private let state: Mutex<State>

    /// A gate with `places` places (at least one).
    init(places: Int) {
        state = Mutex(State(free: max(1, places)))
    }

    /// Runs `body` once it has a place, and leaves the place when it ends, however it ends.
    /// Throws `CancellationError` without running `body` when the task is cancelled before a
    /// place is its own.
    func admitting<T>(_ body: () async throws -> T) async throws -> T {
        try await enter()
        defer { leave() }
        return try await body()
    }

    private func enter() async throws {
        let id = state.withLock { state in
            defer { state.nextID += 1 }
            return state.nextID
        }
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (place: CheckedContinuation<Void, any Error>) in
                enum Outcome { case admitted, waiting, cancelled }
                let outcome = state.withLock { state -> Outcome in
                    if Task.isCancelled { return .cancelled }
                    if state.free > 0 {
                        state.free -= 1
                        return .admitted
                    }
                    state.waiting.append(Waiter(id: id, place: place))
                    return .waiting
                }
                switch outcome {
                case .admitted: place.resume()
                case .cancelled: place.resume(throwing: CancellationError())
                case .waiting: break
                }
            }
        } onCancel: {
            let waiter = state.withLock { state -> Waiter? in
                guard let index = state.waiting.firstIndex(where: { $0.id == id }) else { return nil }
                return state.waiting.remove(at: index)
            }
            waiter?.place.resume(throwing: CancellationError())
        }
    }

    /// Hands the place to the longest waiting, or frees it.
    private func leave() {
        let next = state.withLock { state -> Waiter? in
            guard !state.waiting.isEmpty else {
                state.free += 1
                return nil
            }
            return state.waiting.removeFirst()
        }
        next?.place.resume()
    }
}
