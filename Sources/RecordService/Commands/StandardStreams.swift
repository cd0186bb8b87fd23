import Foundation
import RecordKit

/// What the service's commands print. Standard output is written line by line and checked, so
/// a command whose output cannot be written (a full disk, a closed descriptor) fails naming why
/// instead of ending as if it had been shown; standard error is written as well as it can be.
/// Neither stops the process as `FileHandle`'s `write` does on such a failure.
enum StandardStreams {
    /// Writes `line` and a line end to standard output; a reader that went away ends the
    /// process quietly, as SIGPIPE does.
    static func print(_ line: String) throws(RecordError) {
        let failure = StandardDescriptors.wasClosed(STDOUT_FILENO) ? EBADF : DescriptorWrite.all(line + "\n", to: STDOUT_FILENO)
        guard let failure else { return }
        DescriptorWrite.endIfTheReaderLeft(failure)
        throw DescriptorWrite.error(writing: "to standard output", errorNumber: failure)
    }

    /// Writes `text` to standard error, or nothing when it cannot be written.
    static func printError(_ text: String) {
        _ = DescriptorWrite.all(text, to: STDERR_FILENO)
    }
}
