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

    public init() {}

    /// Makes SIGINT request an interruption (and interrupt `database`'s running statement, for a
    /// local database) instead of ending the process.
    func installForSIGINT(database: RecordDatabase?) {
        signal(SIGINT, SIG_IGN)
        source.withLock { installed in
            let source = DispatchSource.makeSignalSource(signal: SIGINT, queue: .global())
            source.setEventHandler { [self] in
                request()
                database?.interrupt()
            }
            source.resume()
            installed = source
        }
    }

    /// Requests an interruption, as SIGINT does.
    public func request() {
        requested.store(true, ordering: .sequentiallyConsistent)
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
