import Foundation
import RecordKit

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Reads a password for a command: from the terminal without echo (asked twice), or the first
/// line of standard input when it is piped. The password is never printed or logged.
enum PasswordInput {
    /// What was read.
    enum Entry: Equatable {
        case password(String)
        /// Standard input ended before a line.
        case ended
        /// The two entries at the terminal differ.
        case mismatch
        /// A line longer than ``maximumLineBytes`` (or input with no line end, as `/dev/zero`):
        /// refused at the limit, not gathered until memory runs out.
        case tooLong
    }

    /// The longest line read as a password: far above what bcrypt reads (72 bytes), so that
    /// the user store names that limit for anything typed, and small enough to hold.
    static let maximumLineBytes = 4096

    /// The password entered, prompting with `prompt` at a terminal.
    static func read(prompt: String) -> Entry {
        let lines = LineReader(descriptor: STDIN_FILENO, maximumLength: maximumLineBytes)
        guard isatty(STDIN_FILENO) == 1 else { return entry(lines.next()) }
        let first = readWithoutEcho(prompt: prompt, from: lines)
        guard case .password(let password) = first else { return first }
        let second = readWithoutEcho(prompt: "again: ", from: lines)
        guard case .password(let again) = second else { return second }
        return password == again ? first : .mismatch
    }

    /// One line from the terminal with echo turned off, restored afterwards.
    private static func readWithoutEcho(prompt: String, from lines: LineReader) -> Entry {
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
        return entry(lines.next())
    }

    /// A line read as an entry, without the `\r` of a `\r\n` line end.
    private static func entry(_ line: LineReader.Line) -> Entry {
        switch line {
        case .line(var bytes):
            if bytes.last == UInt8(ascii: "\r") { bytes.removeLast() }
            return .password(String(decoding: bytes, as: UTF8.self))
        case .tooLong: return .tooLong
        case .end: return .ended
        }
    }
}
