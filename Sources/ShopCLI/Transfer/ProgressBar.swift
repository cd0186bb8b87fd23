import Foundation
import RecordKit

/// A progress bar on standard error for long imports and exports: drawn only when errors go to a
/// terminal, and only once the work has taken more than a second (a quick command prints
/// nothing); redrawn at most ten times a second, and erased when the work ends. Each update is
/// also where the work stops for Ctrl-C: an import runs many statements, most of the time
/// between them, where SQLite has none to abandon.
struct ProgressBar {
    static let delay: Duration = .seconds(1)
    static let width = 30

    private let console: Console
    private let label: String
    private let interruption: Interruption
    private let started = ContinuousClock.now
    private var lastDrawn: ContinuousClock.Instant?

    init(console: Console, label: String, interruption: Interruption) {
        self.console = console
        self.label = label
        self.interruption = interruption
    }

    /// Shows `done` records out of about `fraction` of the whole (0…1).
    ///
    /// - Throws: ``RecordError`` once Ctrl-C has been pressed: the work stops there, and an
    ///   import's transaction rolls back.
    mutating func update(done: Int, fraction: Double) throws(RecordError) {
        if interruption.isRequested {
            throw RecordError(.invalidArguments, "the \(label) stopped for Ctrl-C after \(done.formatted()) records")
        }
        guard console.errorsAreTerminal else { return }
        let now = ContinuousClock.now
        guard now - started >= Self.delay, lastDrawn.map({ now - $0 >= .milliseconds(100) }) ?? true else { return }
        lastDrawn = now
        let filled = Int((min(max(fraction, 0), 1) * Double(Self.width)).rounded(.down))
        let bar = String(repeating: "#", count: filled) + String(repeating: "-", count: Self.width - filled)
        console.writeError("\r\(label) [\(bar)] \(Int(fraction * 100))% \(done.formatted()) records")
    }

    /// Erases the bar, if it was drawn.
    func finish() {
        guard lastDrawn != nil else { return }
        console.writeError("\r\u{1B}[K")
    }
}
