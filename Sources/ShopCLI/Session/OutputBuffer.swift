import Foundation
import Synchronization

/// Text gathered in memory and handed to its destination in large pieces: one write per
/// ``capacity`` bytes instead of one per command, which for a script of small commands is a
/// system call per line saved.
///
/// Whoever owns the buffer says when its text must be out (``flush()``): before anything is
/// written to standard error, so that errors come after the output that preceded them; before
/// waiting for input, so that a prompt or a program talking to `shop` through pipes sees every
/// answer; and at exit.
final class OutputBuffer: Sendable {
    /// How many bytes are gathered before they are written without being asked to.
    static let capacity = 64 * 1024

    private let pending = Mutex<[UInt8]>([])
    private let destination: @Sendable (Data) -> Void

    /// A buffer that hands what is written to `destination`.
    init(destination: @escaping @Sendable (Data) -> Void) {
        self.destination = destination
    }

    /// Adds `text`; writes everything gathered once it reaches ``capacity``.
    func write(_ text: String) {
        pending.withLock { bytes in
            bytes.append(contentsOf: text.utf8)
            if bytes.count >= Self.capacity { hand(&bytes) }
        }
    }

    /// Writes everything gathered so far.
    func flush() {
        pending.withLock { bytes in
            if !bytes.isEmpty { hand(&bytes) }
        }
    }

    /// Gives `bytes` to the destination and empties them, under the lock, so that pieces
    /// reach the destination in the order they were written.
    private func hand(_ bytes: inout [UInt8]) {
        destination(Data(bytes))
        bytes.removeAll(keepingCapacity: true)
    }
}
