import Synchronization

/// A fixed number of places that async work takes in turn, first come first served: work
/// beyond them suspends (it never blocks a thread) until a place is left.
final class AdmissionGate: Sendable {
    private let state: Mutex<(free: Int, waiting: [CheckedContinuation<Void, Never>])>

    /// A gate with `places` places (at least one).
    init(places: Int) {
        state = Mutex((max(1, places), []))
    }

    /// Runs `body` once it has a place, and leaves the place when it ends, however it ends.
    func admitting<T>(_ body: () async throws -> T) async throws -> T {
        await enter()
        defer { leave() }
        return try await body()
    }

    private func enter() async {
        await withCheckedContinuation { (place: CheckedContinuation<Void, Never>) in
            let admitted = state.withLock { state in
                if state.free > 0 {
                    state.free -= 1
                    return true
                }
                state.waiting.append(place)
                return false
            }
            if admitted { place.resume() }
        }
    }

    /// Hands the place to the longest waiting, or frees it.
    private func leave() {
        let next = state.withLock { state -> CheckedContinuation<Void, Never>? in
            guard !state.waiting.isEmpty else {
                state.free += 1
                return nil
            }
            return state.waiting.removeFirst()
        }
        next?.resume()
    }
}
