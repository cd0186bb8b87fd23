import Foundation

/// Shows long output through a pager at a terminal, as `git` and `psql` do: `$PAGER`, else
/// `less -FRX` when `less` is installed (`-F` quits at once when the text fits on one screen,
/// `-R` passes colour, `-X` leaves the text on the screen). An empty `$PAGER`, `--no-pager` or
/// an output that is not a terminal mean no pager (see ``make(environment:enabled:)``).
struct Pager: Sendable {
    /// The shell command that pages its standard input.
    var command: String

    /// The pager to use, or `nil` for none.
    static func make(environment: [String: String], enabled: Bool) -> Pager? {
        guard enabled else { return nil }
        if let chosen = environment["PAGER"] {
            return chosen.trimmingWhitespace.isEmpty ? nil : Pager(command: chosen)
        }
        let path = environment["PATH"] ?? "/usr/bin:/bin"
        let hasLess = path.split(separator: ":").contains { FileManager.default.isExecutableFile(atPath: "\($0)/less") }
        return hasLess ? Pager(command: "less -FRX") : nil
    }

    /// Whether `text` is longer than the terminal on standard output (24 lines when it cannot tell).
    static func isLong(_ text: String) -> Bool {
        var size = winsize()
        let rows = ioctl(STDOUT_FILENO, UInt(TIOCGWINSZ), &size) == 0 && size.ws_row > 0 ? Int(size.ws_row) : 24
        return text.utf8.lazy.filter { $0 == UInt8(ascii: "\n") }.count >= rows - 1
    }

    /// Runs the pager on `text` and waits for it to end. Returns false, having shown nothing,
    /// when the pager cannot be started (the caller then writes the text itself).
    func show(_ text: String) -> Bool {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", command]
        let input = Pipe()
        process.standardInput = input
        do {
            try process.run()
        } catch {
            return false
        }
        // The pager may quit before reading everything (q in less): the write then fails with
        // EPIPE, which is no error here, instead of SIGPIPE ending shop.
        let previous = signal(SIGPIPE, SIG_IGN)
        try? input.fileHandleForWriting.write(contentsOf: Data(text.utf8))
        try? input.fileHandleForWriting.close()
        signal(SIGPIPE, previous)
        process.waitUntilExit()
        return true
    }
}
