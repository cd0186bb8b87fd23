import Synchronization

/// A dictionary shared between requests that holds at most `capacity` entries: when it is
/// full, the least recently used half is dropped at once (one pass per `capacity / 2`
/// insertions instead of one per insertion). RecordKit keeps compiled queries in one, RecordQL
/// its documents and plans.
public final class BoundedCache<Key: Hashable & Sendable, Value: Sendable>: Sendable {
    private struct Entry {
        var value: Value
        var lastUse: UInt64
    }

    private struct State {
        var entries: [Key: Entry] = [:]
        var clock: UInt64 = 0
    }

    /// The most entries held.
    public let capacity: Int
    private let state = Mutex(State())

    public init(capacity: Int) {
        self.capacity = max(1, capacity)
    }

    /// The value stored for `key`, now the most recently used; `nil` if there is none.
    public func value(for key: Key) -> Value? {
        state.withLock { state in
            state.clock += 1
            guard var entry = state.entries[key] else { return nil }
            entry.lastUse = state.clock
            state.entries[key] = entry
            return entry.value
        }
    }

    /// Stores `value` for `key`, dropping the least recently used half first when full.
    public func store(_ value: Value, for key: Key) {
        state.withLock { state in
            state.clock += 1
            if state.entries.count >= capacity, state.entries[key] == nil {
                let uses = state.entries.values.map(\.lastUse).sorted()
                let threshold = uses[uses.count / 2]
                state.entries = state.entries.filter { $0.value.lastUse > threshold }
            }
            state.entries[key] = Entry(value: value, lastUse: state.clock)
        }
    }

    /// How many entries are stored.
    public var count: Int { state.withLock { $0.entries.count } }
}
