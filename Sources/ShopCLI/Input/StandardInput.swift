import Foundation
import RecordKit

/// Standard input as lines of commands, when it is a pipe or a file rather than a terminal.
///
/// Lines must be UTF-8, as script files must (``SourceFile``): reading stops at a line that is
/// not, and ``Lines/invalidLine`` says which, so the caller refuses it instead of running text
/// with replacement characters in it.
enum StandardInput {
    /// The lines of standard input, without their line ends (`\n` or `\r\n`). Before reading a
    /// line that is not there yet, `beforeWaiting` runs (it writes the output held back, so that
    /// a program feeding `shop` one line at a time sees each answer before it sends the next line).
    static func lines(beforeWaiting: @escaping () -> Void) -> Lines {
        Lines(beforeWaiting: beforeWaiting)
    }

    /// The lines, read one at a time as they are iterated.
    final class Lines: Sequence {
        private let beforeWaiting: () -> Void
        /// The number of the first line that is not UTF-8, once iteration has stopped there.
        private(set) var invalidLine: Int?
        private var lineCount = 0

        init(beforeWaiting: @escaping () -> Void) {
            self.beforeWaiting = beforeWaiting
        }

        func makeIterator() -> AnyIterator<String> {
            AnyIterator { [self] in
                guard invalidLine == nil else { return nil }
                if !StandardInput.hasInputReady { beforeWaiting() }
                guard var bytes = StandardInput.readLineBytes() else { return nil }
                lineCount += 1
                if bytes.last == UInt8(ascii: "\r") { bytes.removeLast() }
                guard let line = String(validating: bytes, as: UTF8.self) else {
                    invalidLine = lineCount
                    return nil
                }
                return line
            }
        }

        /// The error refusing the input, when a line was not UTF-8.
        var encodingError: RecordError? {
            invalidLine.map { line in
                RecordError(.invalidArguments, "standard input is not UTF-8 text at line \(line); nothing from that line on was run")
            }
        }
    }

    /// A C stream over standard input, made on first use (read by one runner at a time; nothing
    /// else reads standard input when it is not a terminal).
    nonisolated(unsafe) private static let standardInput = fdopen(STDIN_FILENO, "r")

    /// One line of standard input without its `\n`, or `nil` at the end.
    private static func readLineBytes() -> [UInt8]? {
        var buffer: UnsafeMutablePointer<CChar>?
        var capacity = 0
        defer { free(buffer) }
        guard let standardInput else { return nil }
        let count = getline(&buffer, &capacity, standardInput)
        guard count >= 0, let buffer else { return nil }
        var bytes = [UInt8](UnsafeRawBufferPointer(start: buffer, count: count))
        if bytes.last == UInt8(ascii: "\n") { bytes.removeLast() }
        return bytes
    }

    /// Whether reading standard input returns without waiting: input, or its end, is there.
    /// (Lines already read ahead into the C library's buffer may answer `false`, which only
    /// makes `beforeWaiting` run when it need not.)
    private static var hasInputReady: Bool {
        var descriptor = pollfd(fd: STDIN_FILENO, events: Int16(POLLIN), revents: 0)
        return poll(&descriptor, 1, 0) > 0
    }
}
