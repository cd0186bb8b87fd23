import Synchronization

/// The commits of a database from the moment ``RecordStore/commitNotices()`` was called, as an
/// async sequence: each element is every commit since the previous element, merged into one
/// ``CommitNotice`` (so a subscriber that is busy while several commits happen gets one notice
/// naming all their record types, and nothing is ever buffered without bound).
///
/// The sequence ends when the task iterating it is cancelled; dropping it unsubscribes.
public struct CommitNotices: AsyncSequence, Sendable {
    public typealias Element = CommitNotice
    public typealias Failure = Never

    let subscriber: CommitSubscriber
    private let wakeups: AsyncStream<Void>
    private let broadcaster: CommitBroadcaster

    init(subscriber: CommitSubscriber, wakeups: AsyncStream<Void>, broadcaster: CommitBroadcaster) {
        self.subscriber = subscriber
        self.wakeups = wakeups
        self.broadcaster = broadcaster
    }

    /// Returns once every commit from now on will be told. This process's commits always are;
    /// another process's are found by a watch that the first subscriber starts, and a commit
    /// made before the watch's first look is where the watch starts, not news. A subscriber
    /// that reads the database and then waits for changes should read after this returns, so
    /// that no commit falls between its read and the watch. Immediate unless a watch is
    /// starting; a watch whose first look could not read the database lets it return too
    /// (rather than hold the subscriber until it can), and starts at its first look that can.
    public func ready() async {
        await broadcaster.watchHasLooked()
    }

    public func makeAsyncIterator() -> Iterator {
        Iterator(subscriber: subscriber, wakeups: wakeups.makeAsyncIterator())
    }

    public struct Iterator: AsyncIteratorProtocol {
        let subscriber: CommitSubscriber
        var wakeups: AsyncStream<Void>.Iterator

        /// The commits since the previous call, waiting for one when there is none yet; `nil`
        /// once the task is cancelled.
        public mutating func next() async -> CommitNotice? {
            while true {
                if let notice = subscriber.take() { return notice }
                guard await wakeups.next() != nil, !Task.isCancelled else { return nil }
            }
        }
    }
}

/// One subscriber of a ``CommitBroadcaster``: the commits not yet taken, merged.
final class CommitSubscriber: Sendable {
    private let pending = Mutex<CommitNotice?>(nil)
    private let wakeup: AsyncStream<Void>.Continuation

    init(wakeup: AsyncStream<Void>.Continuation) {
        self.wakeup = wakeup
    }

    /// Adds `notice` to what is pending and wakes the iterator.
    func deliver(_ notice: CommitNotice) {
        pending.withLock { $0 = $0.map { $0.merged(with: notice) } ?? notice }
        wakeup.yield()
    }

    /// What is pending, now taken.
    func take() -> CommitNotice? {
        pending.withLock { pending in
            defer { pending = nil }
            return pending
        }
    }
}

/// Tells every subscriber of one database about its commits. A backend calls ``publish(_:)``
/// after each commit; `onFirstSubscriber` and `onLastUnsubscribed` let it watch for other
/// processes' commits only while someone listens.
final class CommitBroadcaster: Sendable {
    private struct State {
        var subscribers: [ObjectIdentifier: CommitSubscriber] = [:]
        var watcher: Task<Void, Never>?
        /// Set when the watch starts, until its first look: ``CommitNotices/ready()`` waits.
        var watchIsStarting = false
        var waitingForTheWatch: [CheckedContinuation<Void, Never>] = []
    }

    private let state = Mutex(State())
    /// Started when the first subscriber arrives, cancelled when the last one leaves; `nil` for
    /// a database no other process can write.
    private let watch: (@Sendable (CommitBroadcaster) -> Task<Void, Never>)?

    init(watch: (@Sendable (CommitBroadcaster) -> Task<Void, Never>)? = nil) {
        self.watch = watch
    }

    /// Whether anyone listens (a commit need not be described when no one does).
    var hasSubscribers: Bool { state.withLock { !$0.subscribers.isEmpty } }

    /// A new subscription, seeing every commit published from now on.
    func subscribe() -> CommitNotices {
        let (wakeups, continuation) = AsyncStream<Void>.makeStream(bufferingPolicy: .bufferingNewest(1))
        let subscriber = CommitSubscriber(wakeup: continuation)
        let id = ObjectIdentifier(subscriber)
        continuation.onTermination = { [weak self] _ in self?.unsubscribe(id) }
        let start = state.withLock { state -> Bool in
            state.subscribers[id] = subscriber
            let start = state.subscribers.count == 1 && state.watcher == nil && watch != nil
            if start { state.watchIsStarting = true }
            return start
        }
        if start, let watch {
            let task = watch(self)
            let stale = state.withLock { state -> Task<Void, Never>? in
                if state.subscribers.isEmpty || state.watcher != nil { return task }
                state.watcher = task
                return nil
            }
            stale?.cancel()
        }
        return CommitNotices(subscriber: subscriber, wakeups: wakeups, broadcaster: self)
    }

    /// Called by the watch after its first look at the database, whether or not it could read:
    /// the subscribers waiting in ``CommitNotices/ready()`` go on.
    func watchLooked() {
        let waiting = state.withLock { state in
            state.watchIsStarting = false
            defer { state.waitingForTheWatch = [] }
            return state.waitingForTheWatch
        }
        for continuation in waiting { continuation.resume() }
    }

    /// Returns once the watch, if one is starting, has had its first look.
    func watchHasLooked() async {
        guard state.withLock({ $0.watchIsStarting }) else { return }
        await withCheckedContinuation { continuation in
            let looked = state.withLock { state -> Bool in
                guard state.watchIsStarting else { return true }
                state.waitingForTheWatch.append(continuation)
                return false
            }
            if looked { continuation.resume() }
        }
    }

    /// Tells every subscriber about `notice`.
    func publish(_ notice: CommitNotice) {
        for subscriber in state.withLock({ Array($0.subscribers.values) }) {
            subscriber.deliver(notice)
        }
    }

    private func unsubscribe(_ id: ObjectIdentifier) {
        let watcher = state.withLock { state -> Task<Void, Never>? in
            state.subscribers[id] = nil
            guard state.subscribers.isEmpty else { return nil }
            defer { state.watcher = nil }
            return state.watcher
        }
        watcher?.cancel()
        if watcher != nil { watchLooked() }
    }
}
