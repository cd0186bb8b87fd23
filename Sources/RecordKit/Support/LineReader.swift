import Foundation

/// Lines read from a file descriptor through a buffer of its own, each at most
/// ``maximumLength`` bytes: a line longer than that (or input with no line end, as `/dev/zero`)
/// is reported as such instead of being gathered until memory runs out, which C's `getline`
/// would do. Standard input of a script and a password piped to a command are read this way.
public final class LineReader {
    /// What ``next()`` read.
    public enum Line: Equatable, Sendable {
        /// A line's bytes, without its `\n`.
        case line([UInt8])
        /// A line longer than ``maximumLength``; nothing after it is read.
        case tooLong
        /// The end of the input (or a read that failed).
        case end
    }

    /// The longest line returned, in bytes.
    public let maximumLength: Int
    private let descriptor: Int32
    /// Bytes read and not yet returned start at `start`; the bytes before `scanned` hold no `\n`.
    private var buffer: [UInt8] = []
    private var start = 0
    private var scanned = 0
    private var reachedEnd = false
    private var refused = false

    /// A reader of `descriptor`'s lines, each at most `maximumLength` bytes; it reads nothing
    /// until ``next()`` is called.
    public init(descriptor: Int32, maximumLength: Int) {
        self.descriptor = descriptor
        self.maximumLength = maximumLength
    }

    /// The next line, reading more input when the buffer holds no whole one.
    public func next() -> Line {
        while !refused {
            let newline = buffer[scanned...].firstIndex(of: UInt8(ascii: "\n"))
            scanned = newline ?? buffer.count
            if scanned - start > maximumLength {
                refused = true
                return .tooLong
            }
            if let newline { return take(upTo: newline, skipping: 1) }
            if reachedEnd {
                return start < buffer.count ? take(upTo: buffer.count, skipping: 0) : .end
            }
            readMore()
        }
        return .end
    }

    /// Whether ``next()`` returns without waiting for input: a whole line, or the end, is here.
    public var hasLineReady: Bool {
        reachedEnd || refused || buffer[scanned...].contains(UInt8(ascii: "\n"))
    }

    private func take(upTo end: Int, skipping separator: Int) -> Line {
        let line = Array(buffer[start..<end])
        start = end + separator
        // The bytes returned are dropped once they are most of the buffer.
        if start > buffer.count / 2 {
            buffer.removeFirst(start)
            start = 0
        }
        scanned = start
        return .line(line)
    }

    private func readMore() {
        let chunk = 64 * 1024
        let old = buffer.count
        buffer.append(contentsOf: repeatElement(0, count: chunk))
        while true {
            let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress! + old, chunk) }
            if count < 0 && errno == EINTR { continue }
            buffer.removeLast(chunk - max(count, 0))
            if count <= 0 { reachedEnd = true }
            return
        }
    }
}
