import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Reads a password for a command: from the terminal without echo (asked twice), or the first
/// line of standard input when it is piped. The password is never printed or logged.
enum PasswordInput {
    /// The password, or `nil` when standard input ended first or the two entries differ
    /// (`mismatch` is true then).
    static func read(prompt: String) -> (password: String?, mismatch: Bool) {
        guard isatty(STDIN_FILENO) == 1 else { return (readLine(strippingNewline: true), false) }
        guard let first = readWithoutEcho(prompt: prompt) else { return (nil, false) }
        guard let second = readWithoutEcho(prompt: "again: ") else { return (nil, false) }
        return first == second ? (first, false) : (nil, true)
    }

    /// One line from the terminal with echo turned off, restored afterwards.
    private static func readWithoutEcho(prompt: String) -> String? {
        StandardStreams.printError(prompt)
        var saved = termios()
        let hasTerminal = tcgetattr(STDIN_FILENO, &saved) == 0
        if hasTerminal {
            var quiet = saved
            quiet.c_lflag &= ~tcflag_t(ECHO)
            tcsetattr(STDIN_FILENO, TCSAFLUSH, &quiet)
        }
        defer {
            if hasTerminal { tcsetattr(STDIN_FILENO, TCSAFLUSH, &saved) }
            StandardStreams.printError("\n")
        }
        return readLine(strippingNewline: true)
    }
}
