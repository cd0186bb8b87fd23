import Foundation

/// Bytes written to a file descriptor in full, and what a failure means: `write(2)` may take
/// only part of what it is given, or be interrupted by a signal before taking anything, and both
/// mean "write the rest".
///
/// For the process's own streams and the files an export writes, where Foundation's
/// `FileHandle.write(_:)` stops the process on a full disk or a closed pipe instead of saying so.
public enum DescriptorWrite {
    /// Writes every byte of `bytes` to `descriptor`: `nil` when all were written, else the
    /// `errno` of the failure that stopped it (what came before it is written).
    public static func all(_ bytes: UnsafeRawBufferPointer, to descriptor: Int32) -> Int32? {
        guard let start = bytes.baseAddress else { return nil }
        var offset = 0
        while offset < bytes.count {
            let written = write(descriptor, start + offset, bytes.count - offset)
            if written < 0 {
                if errno == EINTR { continue }
                return errno
            }
            // Nothing taken when something was given: a device that will take no more.
            if written == 0 { return EIO }
            offset += written
        }
        return nil
    }

    /// Writes `text`'s UTF-8 to `descriptor`, as ``all(_:to:)``.
    public static func all(_ text: String, to descriptor: Int32) -> Int32? {
        var text = text
        return text.withUTF8 { all(UnsafeRawBufferPointer($0), to: descriptor) }
    }

    /// The error of a write to `name` that failed with `errorNumber`, then `aftermath` (what is
    /// left as it was): `limitExceeded` for a full disk or quota, `internalError` otherwise.
    public static func error(writing name: String, errorNumber: Int32, _ aftermath: String = "") -> RecordError {
        let reason = String(cString: strerror(errorNumber))
        return RecordError(
            errorNumber == ENOSPC || errorNumber == EDQUOT ? .limitExceeded : .internalError, "cannot write \(name): \(reason)\(aftermath)")
    }

    /// Ends the process as SIGPIPE does when `errorNumber` says the reader of a pipe went away
    /// (`shop … | head`), quietly, as any program writing to a pipe ends, also where SIGPIPE is
    /// ignored (NIO ignores it); returns for any other failure.
    public static func endIfTheReaderLeft(_ errorNumber: Int32) {
        guard errorNumber == EPIPE else { return }
        signal(SIGPIPE, SIG_DFL)
        // To the process, not this thread: a thread of Swift's pool may block signals.
        kill(getpid(), SIGPIPE)
    }
}
