import Foundation
import RecordKit
import Synchronization

/// Where a session writes: results to standard output, errors to standard error.
///
/// ``standard`` writes to the process's streams; tests use ``capturing()`` to collect both.
/// Results may be held back until ``flush`` (see ``buffered(output:errors:)``): whoever is about
/// to wait for input, or to exit, flushes first.
public struct Console: Sendable {
    /// Writes result text (already ending in a newline when it should).
    public var write: @Sendable (String) -> Void
    /// Writes error text, after any result text held back.
    public var writeError: @Sendable (String) -> Void
    /// Writes any result text held back.
    public var flush: @Sendable () -> Void
    /// Whether results go to a terminal (then they may be coloured and paged).
    public var outputIsTerminal = false
    /// Whether errors go to a terminal (then `error:` may be coloured).
    public var errorsAreTerminal = false
    /// Set when standard output could not be written (``standard`` only).
    var lostOutput: LostOutput?

    public init(
        write: @escaping @Sendable (String) -> Void,
        writeError: @escaping @Sendable (String) -> Void,
        flush: @escaping @Sendable () -> Void = {}
    ) {
        self.write = write
        self.writeError = writeError
        self.flush = flush
    }

    /// The process's standard output and standard error. Results go through an
    /// ``OutputBuffer`` when standard output is a file or a pipe; at a terminal each is written
    /// at once, for the person watching. Output that cannot be written is recorded in
    /// ``lostOutput`` and not tried again; error text that cannot be written has nowhere to go.
    public static let standard: Console = {
        let lost = LostOutput()
        if StandardDescriptors.wasClosed(STDOUT_FILENO) { lost.record(EBADF) }
        let output: @Sendable (Data) -> Void = { data in
            guard lost.errorNumber == nil else { return }
            if let failure = data.withUnsafeBytes({ DescriptorWrite.all($0, to: STDOUT_FILENO) }) { lost.record(failure) }
        }
        let errors: @Sendable (Data) -> Void = { data in _ = data.withUnsafeBytes { DescriptorWrite.all($0, to: STDERR_FILENO) } }
        var console =
            isatty(STDOUT_FILENO) == 1
            ? Console(write: { output(Data($0.utf8)) }, writeError: { errors(Data($0.utf8)) })
            : buffered(output: output, errors: errors)
        console.outputIsTerminal = isatty(STDOUT_FILENO) == 1
        console.errorsAreTerminal = isatty(STDERR_FILENO) == 1
        console.lostOutput = lost
        return console
    }()

    /// A console whose results gather in an ``OutputBuffer`` on their way to `output`; error
    /// text flushes them first, then goes to `errors` at once.
    static func buffered(output: @escaping @Sendable (Data) -> Void, errors: @escaping @Sendable (Data) -> Void) -> Console {
        let buffer = OutputBuffer(destination: output)
        return Console(
            write: buffer.write,
            writeError: { text in
                buffer.flush()
                errors(Data(text.utf8))
            },
            flush: buffer.flush
        )
    }

    /// A console that keeps what is written, and the buffer it keeps it in.
    public static func capturing() -> (Console, CapturedOutput) {
        let captured = CapturedOutput()
        let console = Console(
            write: { text in captured.text.withLock { $0.output += text } },
            writeError: { text in captured.text.withLock { $0.errors += text } }
        )
        return (console, captured)
    }

    /// Writes `line` and a newline.
    func print(_ line: String) {
        write(line.hasSuffix("\n") ? line : line + "\n")
    }
}

/// What a capturing ``Console`` collected.
public final class CapturedOutput: Sendable {
    let text = Mutex<(output: String, errors: String)>(("", ""))

    /// Everything written to standard output.
    public var output: String { text.withLock { $0.output } }
    /// Everything written to standard error.
    public var errors: String { text.withLock { $0.errors } }
}
