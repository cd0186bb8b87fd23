public import RecordKit
import RecordQL

/// What commands act on: the records, in a database file or behind a server (``ShopBackend``),
/// and how to print.
///
/// Used by one task at a time: the REPL loop or the script runner that owns it.
public final class ShopSession {
    /// Where the records are.
    let backend: any ShopBackend
    let console: Console
    /// Print what each command shows as one JSON document on a line instead of text (``show(_:)``).
    let printsJSON: Bool
    /// Report every failing command and go on, instead of stopping at the first.
    let keepsGoing: Bool
    /// How results are styled: colour only at a terminal.
    let style: TextStyle
    /// How errors are styled: colour only at a terminal.
    let errorStyle: TextStyle
    /// Pages long results at a terminal; `nil` for none.
    let pager: Pager?
    /// How deep `source` commands are nested, to stop a script that sources itself.
    var sourceDepth = 0
    /// Ctrl-C while a command runs (see ``Interruption``).
    let interruption: Interruption

    public convenience init(
        database: RecordDatabase, console: Console = .standard, printsJSON: Bool = false, keepsGoing: Bool = false,
        interruption: Interruption = Interruption()
    ) {
        self.init(
            backend: LocalBackend(database: database), console: console, printsJSON: printsJSON, keepsGoing: keepsGoing, style: .plain, errorStyle: .plain,
            pager: nil,
            interruption: interruption
        )
    }

    init(
        backend: any ShopBackend, console: Console, printsJSON: Bool, keepsGoing: Bool, style: TextStyle, errorStyle: TextStyle, pager: Pager?,
        interruption: Interruption
    ) {
        self.interruption = interruption
        self.backend = backend
        self.console = console
        self.printsJSON = printsJSON
        self.keepsGoing = keepsGoing
        self.style = style
        self.errorStyle = errorStyle
        self.pager = pager
    }

    /// Prints what a command produced: its JSON document on one line with `--json`, else its
    /// text (see ``display(_:)``).
    func show(_ output: CommandOutput) {
        if printsJSON {
            console.print(output.json().text)
        } else {
            display(output.text(style))
        }
    }

    /// Prints text for people: through the pager when there is one and the text is longer than
    /// the terminal, else to the console a few hundred lines at a time, stopping between them
    /// when Ctrl-C interrupts the command.
    func display(_ text: String) {
        if let pager, Pager.isLong(text) {
            console.flush()
            let interruptedBefore = interruption.isRequested
            let outcome = pager.show(text.hasSuffix("\n") ? text : text + "\n")
            interruption.settle()
            switch outcome {
            case .notStarted: break
            case .interrupted: return
            case .ended:
                // A Ctrl-C typed while the pager ran was the pager's (less stops a search with
                // it), as in git and psql: the command and a script running it go on.
                if !interruptedBefore { interruption.reset() }
                return
            }
        }
        var start = text.utf8.startIndex
        var lines = 0
        for index in text.utf8.indices where text.utf8[index] == UInt8(ascii: "\n") {
            lines += 1
            guard lines == Self.linesPerWrite else { continue }
            if interruption.isRequested { return }
            let end = text.utf8.index(after: index)
            console.write(String(text[start..<end]))
            start = end
            lines = 0
        }
        // What is left is printed: a short answer, or the end of a long one no check stopped. A
        // command that finished as Ctrl-C came says what it did, so the output matches the data.
        let rest = String(text[start...])
        guard !rest.isEmpty || start == text.utf8.startIndex else { return }
        console.print(rest)
    }

    /// How many lines of a long text ``display(_:)`` writes between looking for Ctrl-C.
    static let linesPerWrite = 256

    /// Reports a failure on standard error: `<prefix>error: <message>` (`error:` in colour at a
    /// terminal), then `details` (lines ending in newlines) as they are.
    func reportError(_ message: String, prefix: String = "", details: String = "") {
        console.writeError("\(prefix)\(errorStyle.errorLabel("error:")) \(message)\n\(details)")
    }

    /// Whether a local backend has made its GraphQL engine (start-up and plain commands leave it
    /// unmade).
    var hasQueryEngine: Bool { (backend as? LocalBackend)?.hasQueryEngine ?? false }

    /// The shopping-list operations over ``backend``.
    var store: ShoppingStore { ShoppingStore(backend: backend) }
}
