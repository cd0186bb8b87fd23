import Foundation
import Synchronization

/// Where a session writes: results to standard output, errors to standard error.
///
/// ``standard`` writes to the process's streams; tests use ``capturing()`` to collect both.
public struct Console: Sendable {
    /// Writes result text (already ending in a newline when it should).
    public var write: @Sendable (String) -> Void
    /// Writes error text.
    public var writeError: @Sendable (String) -> Void

    public init(write: @escaping @Sendable (String) -> Void, writeError: @escaping @Sendable (String) -> Void) {
        self.write = write
        self.writeError = writeError
    }

    /// The process's standard output and standard error.
    public static let standard = Console(
        write: { FileHandle.standardOutput.write(Data($0.utf8)) },
        writeError: { FileHandle.standardError.write(Data($0.utf8)) }
    )

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
