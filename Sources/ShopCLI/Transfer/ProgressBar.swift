import Foundation

/// A progress bar on standard error for long imports and exports: drawn only when errors go to a
/// terminal, and only once the work has taken more than a second (a quick command prints
/// nothing); redrawn at most ten times a second, and erased when the work ends.
struct ProgressBar {
    static let delay: Duration = .seconds(1)
    static let width = 30

    private let console: Console
    private let label: String
    private let started = ContinuousClock.now
    private var lastDrawn: ContinuousClock.Instant?

    init(console: Console, label: String) {
        self.console = console
        self.label = label
    }

    /// Shows `done` records out of about `fraction` of the whole (0…1).
    mutating func update(done: Int, fraction: Double) {
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
