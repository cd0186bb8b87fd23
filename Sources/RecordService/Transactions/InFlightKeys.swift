import HTTPTypes
import Synchronization

/// The transaction IDs whose first run is under way in this process: a retry that arrives
/// meanwhile gets 409 instead of waiting on (or racing) the first.
public final class InFlightKeys: Sendable {
    private let running = Mutex<Set<String>>([])

    public init() {}

    /// Runs `body` while `storedID` is marked running; 409 when it already is.
    public func whileRunning<T>(_ storedID: String, _ body: () async throws -> T) async throws -> T {
        let claimed = running.withLock { $0.insert(storedID).inserted }
        guard claimed else {
            throw ServiceError(
                .conflict, code: .conflict,
                "a request with this Idempotency-Key is still running; retry when it has answered to get its response"
            )
        }
        defer { _ = running.withLock { $0.remove(storedID) } }
        return try await body()
    }
}
