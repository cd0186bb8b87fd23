import Dispatch
import Foundation
import RecordKit
import Synchronization

/// Ctrl-C (SIGINT) while a command runs: cancels that command instead of ending shop.
///
/// Once ``installForSIGINT(database:)`` has run, SIGINT no longer ends the process: it sets a
/// flag and asks SQLite to abandon the statement it is running (``RecordDatabase/interrupt()``),
/// so a long statement fails at once and its transaction rolls back. The flag is checked
/// between commands (``ScriptRunner``) and between pieces of output (``ShopSession/display(_:)``):
/// a read stops printing, a script stops after its current command. Whoever reads the next
/// command from a person (the prompt) ``reset()``s it.
///
/// At the prompt libedit turns Ctrl-C into a key (the terminal's ISIG is off while a line is
/// edited), so a signal only arrives while a command runs.
public final class Interruption: Sendable {
    private let requested = Atomic<Bool>(false)
    /// Whether a runner has already said that the interruption stopped it (an outer `source`
    /// or script then stops without saying it again).
    private let reported = Atomic<Bool>(false)
    /// The signal source, kept alive while installed.
    private let source = Mutex<(any DispatchSourceSignal)?>(nil)
    /// Where the signal source's handler runs, one signal at a time (``settle()``).
    private let signals = DispatchQueue(label: "shop.interruption")
    /// What to cancel when an interruption is requested, by registration number
    /// (``cancelling(_:during:)``), and the next number.
    private let cancellations = Mutex<(next: Int, actions: [Int: @Sendable () -> Void])>((0, [:]))

    public init() {}

    /// Makes SIGINT request an interruption (and interrupt `database`'s running statement, for a
    /// local database) instead of ending the process.
    func installForSIGINT(database: RecordDatabase?) {
        signal(SIGINT, SIG_IGN)
        source.withLock { installed in
            let source = DispatchSource.makeSignalSource(signal: SIGINT, queue: signals)
            source.setEventHandler { [self] in
                request()
                database?.interrupt()
            }
            source.resume()
            installed = source
        }
    }

    /// Requests an interruption, as SIGINT does: runs the cancellations registered now.
    public func request() {
        requested.store(true, ordering: .sequentiallyConsistent)
        for cancel in cancellations.withLock({ Array($0.actions.values) }) { cancel() }
    }

    /// Runs `body`, calling `cancel` (from another thread) if an interruption is requested while
    /// it runs, or was before it began: for work that a flag checked between steps cannot stop,
    /// such as waiting for a server's answer.
    func cancelling<T>(_ cancel: @escaping @Sendable () -> Void, during body: () async throws -> T) async rethrows -> T {
        let number = cancellations.withLock { registry in
            defer { registry.next += 1 }
            registry.actions[registry.next] = cancel
            return registry.next
        }
        defer { _ = cancellations.withLock { $0.actions.removeValue(forKey: number) } }
        if isRequested { cancel() }
        return try await body()
    }

    /// Waits until a SIGINT already taken from the kernel has been handled: the signal source
    /// hands it to its queue a moment after it arrives, so a caller that must know whether one
    /// came during some work (the pager, ``ShopSession/display(_:)``) asks after this.
    func settle() {
        signals.sync {}
    }

    /// Whether an interruption was requested since the last ``reset()``.
    public var isRequested: Bool { requested.load(ordering: .sequentiallyConsistent) }

    /// Forgets the interruption: the next command runs.
    func reset() {
        requested.store(false, ordering: .sequentiallyConsistent)
        reported.store(false, ordering: .sequentiallyConsistent)
    }

    /// True the first time it is called after an interruption: the caller says it stopped.
    func claimReport() -> Bool {
        !reported.exchange(true, ordering: .sequentiallyConsistent)
    }
}
