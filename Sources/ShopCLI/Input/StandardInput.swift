import Foundation
import RecordKit

/// Standard input as lines of commands, when it is a pipe or a file rather than a terminal.
///
/// Lines must be UTF-8, as script files must (``SourceFile``), and at most
/// ``maximumLineBytes`` long: reading stops at a line that is not, and ``Lines/refusal`` says
/// which and why, so the caller refuses it instead of running text with replacement characters
/// in it (or gathering a line with no end).
enum StandardInput {
    /// The lines of standard input, without their line ends (`\n` or `\r\n`). Before reading a
    /// line that is not there yet, `beforeWaiting` runs (it writes the output held back, so that
    /// a program feeding `shop` one line at a time sees each answer before it sends the next line).
    static func lines(beforeWaiting: @escaping () -> Void) -> Lines {
        Lines(beforeWaiting: beforeWaiting)
    }

    /// The longest line read from standard input: past it the input is refused, so that input
    /// with no line end (`shop < /dev/zero`) fails at once instead of filling memory. Several
    /// values of up to 1 MiB each (``Limits/maximumValueBytes``) fit in one line.
    static let maximumLineBytes = 16 << 20

    /// The lines, read one at a time as they are iterated.
    final class Lines: Sequence {
        private let beforeWaiting: () -> Void
        /// The number of the line that stopped the reading (not UTF-8, or too long), and why.
        private(set) var refusal: (line: Int, error: RecordError)?
        private var lineCount = 0

        init(beforeWaiting: @escaping () -> Void) {
            self.beforeWaiting = beforeWaiting
        }

        func makeIterator() -> AnyIterator<String> {
            AnyIterator { [self] in
                guard refusal == nil else { return nil }
                if !StandardInput.hasInputReady { beforeWaiting() }
                let read = StandardInput.reader.next()
                guard read != .end else { return nil }
                lineCount += 1
                guard case .line(var bytes) = read else {
                    refusal = (
                        lineCount,
                        RecordError(
                            .limitExceeded,
                            "line \(lineCount) of standard input is longer than \(maximumLineBytes >> 20) MiB (or has no end); nothing from that line on was run"
                        )
                    )
                    return nil
                }
                if bytes.last == UInt8(ascii: "\r") { bytes.removeLast() }
                guard let line = String(validating: bytes, as: UTF8.self) else {
                    refusal = (
                        lineCount, RecordError(.invalidArguments, "standard input is not UTF-8 text at line \(lineCount); nothing from that line on was run")
                    )
                    return nil
                }
                return line
            }
        }
    }

    /// Standard input's lines (read by one runner at a time; nothing else reads standard input
    /// when it is not a terminal).
    nonisolated(unsafe) private static let reader = LineReader(descriptor: STDIN_FILENO, maximumLength: maximumLineBytes)

    /// Whether reading standard input returns without waiting: a whole line, or the end, is
    /// there. (Part of a line in the pipe answers `true` and may still wait for its end, which
    /// only means the output held back is written a line later.)
    private static var hasInputReady: Bool {
        if reader.hasLineReady { return true }
        var descriptor = pollfd(fd: STDIN_FILENO, events: Int16(POLLIN), revents: 0)
        return poll(&descriptor, 1, 0) > 0
    }
}
