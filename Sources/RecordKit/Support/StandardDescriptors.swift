import Foundation
import Synchronization

/// The process's standard input, output and error kept open. A program started with one of
/// them closed (`shop … >&-`) would hand that number to the next file or socket it opens, and
/// what it printed would go there: each closed one is opened on `/dev/null` at start instead,
/// and remembered, so that output meant for it can fail as the closed descriptor would have.
public enum StandardDescriptors {
    /// The standard descriptors that were closed when ``keepOpen()`` ran.
    private static let closedAtStart = Mutex<Set<Int32>>([])

    /// Opens `/dev/null` on each of descriptors 0, 1 and 2 that is closed. Call it first, before
    /// anything else opens a file.
    public static func keepOpen() {
        for descriptor in [STDIN_FILENO, STDOUT_FILENO, STDERR_FILENO] where fcntl(descriptor, F_GETFD) == -1 && errno == EBADF {
            // open returns the lowest free number: this one, as the lower ones are open.
            guard open("/dev/null", O_RDWR) == descriptor else { continue }
            closedAtStart.withLock { _ = $0.insert(descriptor) }
        }
    }

    /// Whether `descriptor` was closed when the process started (``keepOpen()``).
    public static func wasClosed(_ descriptor: Int32) -> Bool {
        closedAtStart.withLock { $0.contains(descriptor) }
    }
}
