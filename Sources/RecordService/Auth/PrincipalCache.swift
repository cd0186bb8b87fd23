import Synchronization

/// The principals of tokens checked moments ago, by token digest, so that a client sending
/// request after request does not have each one read the accounts database: an entry is
/// trusted for ``lifetime``, then the token is checked again. Revoking through the same
/// ``TokenStore`` forgets every entry at once; a token revoked by another process (`shop token
/// revoke` while the service runs) stops working within ``lifetime``.
final class PrincipalCache: Sendable {
    /// How long a checked token is trusted without reading the accounts database again.
    static let lifetime: Duration = .seconds(1)
    /// The most tokens remembered; past it the cache starts over.
    static let capacity = 1_024

    private struct Entry {
        var principal: Principal
        var checkedAt: ContinuousClock.Instant
    }

    private struct State {
        var entries: [String: Entry] = [:]
        /// When the entries were last forgotten: what was read before is not remembered.
        var clearedAt: ContinuousClock.Instant?
    }

    private let state = Mutex(State())

    /// The principal of the token with `digest` when it was checked less than ``lifetime`` ago.
    func principal(digest: String) -> Principal? {
        let now = ContinuousClock.now
        return state.withLock { state in
            guard let entry = state.entries[digest], now - entry.checkedAt < Self.lifetime else { return nil }
            return entry.principal
        }
    }

    /// Remembers that the token with `digest` stands for `principal`, as read from a
    /// transaction begun at `checkedAt`; not when the entries were forgotten since.
    func remember(_ principal: Principal, digest: String, checkedAt: ContinuousClock.Instant) {
        state.withLock { state in
            if let clearedAt = state.clearedAt, checkedAt <= clearedAt { return }
            if state.entries.count >= Self.capacity { state.entries.removeAll(keepingCapacity: true) }
            state.entries[digest] = Entry(principal: principal, checkedAt: checkedAt)
        }
    }

    /// Forgets every token (one was revoked).
    func removeAll() {
        let now = ContinuousClock.now
        state.withLock { state in
            state.entries.removeAll()
            state.clearedAt = now
        }
    }
}
