import Foundation
import RecordKit
import Synchronization

/// Standard output that could not be written: a full disk, a closed descriptor, a terminal
/// that went away. From then on what shop prints is dropped, the run stops before its next
/// command (``ScriptRunner``), and shop ends with status 1 and an error naming why
/// (``Shop/main(arguments:environment:console:handlesSIGINT:)``); under `-1` nothing is applied.
/// A reader that went away (`shop … | head`) ends shop quietly, as SIGPIPE ends other programs.
final class LostOutput: Sendable {
    /// The `errno` of the first failed write; 0 while every write succeeded.
    private let code = Atomic<Int32>(0)
    /// Whether the error has been reported.
    private let reported = Atomic<Bool>(false)

    /// The `errno` of the first write that failed, or `nil`.
    var errorNumber: Int32? {
        let code = code.load(ordering: .sequentiallyConsistent)
        return code == 0 ? nil : code
    }

    /// Records that a write failed with `errorNumber`.
    func record(_ errorNumber: Int32) {
        DescriptorWrite.endIfTheReaderLeft(errorNumber)
        _ = code.compareExchange(expected: 0, desired: errorNumber, ordering: .sequentiallyConsistent)
    }

    /// The error to report, the first time it is asked for after a write failed; `nil` before
    /// that and after.
    func claimReport() -> RecordError? {
        guard let errorNumber, !reported.exchange(true, ordering: .sequentiallyConsistent) else { return nil }
        return DescriptorWrite.error(
            writing: "to standard output", errorNumber: errorNumber,
            "; what shop printed from then on is lost: send the output where it can be written (free space, or another file)")
    }
}
