import Foundation

/// Standard input as lines of commands, when it is a pipe or a file rather than a terminal.
enum StandardInput {
    /// The lines of standard input, without their line ends. Before reading a line that is not
    /// there yet, `beforeWaiting` runs (it writes the output held back, so that a program
    /// feeding `shop` one line at a time sees each answer before it sends the next line).
    static func lines(beforeWaiting: @escaping () -> Void) -> AnySequence<String> {
        AnySequence {
            AnyIterator {
                if !hasInputReady { beforeWaiting() }
                return readLine(strippingNewline: true)
            }
        }
    }

    /// Whether reading standard input returns without waiting: input, or its end, is there.
    /// (Lines already read ahead into the C library's buffer may answer `false`, which only
    /// makes `beforeWaiting` run when it need not.)
    private static var hasInputReady: Bool {
        var descriptor = pollfd(fd: STDIN_FILENO, events: Int16(POLLIN), revents: 0)
        return poll(&descriptor, 1, 0) > 0
    }
}
