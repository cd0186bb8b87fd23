import Foundation
import RecordKit

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

    /// How showing text through the pager went.
    enum Outcome: Equatable {
        /// The pager could not be started and showed nothing (the caller writes the text itself).
        case notStarted
        /// The pager ended of itself (`q` in less).
        case ended
        /// A Ctrl-C ended the pager (one that does not handle it, as `cat`): the person meant
        /// to stop.
        case interrupted
    }

    /// Runs the pager on `text` and waits for it to end.
    ///
    /// The pager runs in shop's own process group, which holds the terminal, as `git` and
    /// `psql` start theirs: Foundation's `Process` puts its child in a group of its own, where
    /// `less` is stopped (SIGTTOU) the moment it sets up the terminal, and shop waited for it
    /// forever. A Ctrl-C then reaches both; less takes it as its own key.
    func show(_ text: String) -> Outcome {
        var ends: [Int32] = [-1, -1]
        guard pipe(&ends) == 0 else { return .notStarted }
        let (readEnd, writeEnd) = (ends[0], ends[1])
        // Neither end stays open in the pager (its standard input is a copy of the read end).
        for end in ends { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
        guard let pager = spawn(reading: readEnd) else {
            close(readEnd)
            close(writeEnd)
            return .notStarted
        }
        close(readEnd)
        // The pager may quit before reading everything (q in less): the write then fails with
        // EPIPE, which is no error here, instead of SIGPIPE ending shop.
        let previous = signal(SIGPIPE, SIG_IGN)
        _ = DescriptorWrite.all(text, to: writeEnd)
        close(writeEnd)
        signal(SIGPIPE, previous)
        var status: Int32 = 0
        while waitpid(pager, &status, 0) < 0 && errno == EINTR {}
        // Killed by a signal: the low 7 bits of the status name it (WTERMSIG), 0 for an exit.
        return status & 0x7f == SIGINT ? .interrupted : .ended
    }

    /// Starts `/bin/sh -c command` with `input` as its standard input, the signals shop ignores
    /// or blocks back to their defaults; its process id, or `nil` when it cannot start.
    private func spawn(reading input: Int32) -> pid_t? {
        var actions = posix_spawn_file_actions_t()
        var attributes = posix_spawnattr_t()
        posix_spawn_file_actions_init(&actions)
        posix_spawnattr_init(&attributes)
        defer {
            posix_spawn_file_actions_destroy(&actions)
            posix_spawnattr_destroy(&attributes)
        }
        posix_spawn_file_actions_adddup2(&actions, input, STDIN_FILENO)
        var defaults = sigset_t()
        sigemptyset(&defaults)
        for signal in [SIGINT, SIGQUIT, SIGPIPE, SIGTERM, SIGHUP, SIGTSTP, SIGTTIN, SIGTTOU, SIGCHLD] { sigaddset(&defaults, signal) }
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        var unblocked = sigset_t()
        sigemptyset(&unblocked)
        posix_spawnattr_setsigmask(&attributes, &unblocked)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK))
        let words: [String] = ["/bin/sh", "-c", command]
        let arguments = words.map { strdup($0) } + [nil]
        defer { arguments.forEach { free($0) } }
        var pager: pid_t = 0
        guard posix_spawn(&pager, "/bin/sh", &actions, &attributes, arguments, environ) == 0 else { return nil }
        return pager
    }
}
