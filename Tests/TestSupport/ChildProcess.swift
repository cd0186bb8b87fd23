import Foundation
import Synchronization

/// A process a test starts: `shop`, `shop-bench`, a Python driver, a shell.
///
/// Its standard output and standard error are read as they are written (on threads of their
/// own, so a full pipe never blocks the child) and kept until ``finish(timeout:)``; a test may
/// also read them while the process runs (``nextOutput(_:within:)``) and write to its standard
/// input. With ``Output/terminal(rows:columns:)`` both go to a pseudo-terminal instead, as a
/// person at a terminal would see them.
public final class ChildProcess: Sendable {
    /// What the process reads on standard input.
    public enum Input: Sendable {
        /// `/dev/null`.
        case none
        /// This text, written to a pipe that is then closed.
        case text(String)
        /// A pipe the test writes to (``write(_:)``) and closes (``closeInput()``).
        case pipe
    }

    /// Where standard output and standard error go.
    public enum Output: Sendable {
        /// Two pipes, read into ``ProcessRun/output`` and ``ProcessRun/errors``.
        case pipes
        /// One pipe for both, read into ``ProcessRun/output`` in the order they were written.
        case mergedPipe
        /// A pseudo-terminal of this size for both, read into ``ProcessRun/output``.
        case terminal(rows: UInt16, columns: UInt16)
    }

    private let process: Process
    private let command: String
    private let input: FileHandle?
    private let captured = Captured()
    /// How many bytes of standard output ``nextOutput(_:within:)`` has returned.
    private let outputRead = Mutex(0)

    /// Starts `executable` with `arguments` and this test process's environment, less the
    /// variables in `removing`, plus `environment`.
    public init(
        _ executable: String, _ arguments: [String] = [], environment: [String: String] = [:], removing: [String] = [],
        input: Input = .none, output: Output = .pipes
    ) throws {
        process = Process()
        command = ([executable] + arguments).joined(separator: " ")
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        var processEnvironment = ProcessInfo.processInfo.environment
        for key in removing { processEnvironment.removeValue(forKey: key) }
        processEnvironment.merge(environment) { $1 }
        process.environment = processEnvironment

        var inputPipe: Pipe?
        switch input {
        case .none: process.standardInput = FileHandle.nullDevice
        case .text, .pipe:
            let pipe = Pipe()
            process.standardInput = pipe
            inputPipe = pipe
        }
        self.input = inputPipe?.fileHandleForWriting

        // The ends read here, and the child's ends, closed in this process once it runs.
        var sources: [(handle: FileHandle, stream: Captured.Stream)] = []
        var childEnds: [FileHandle] = []
        switch output {
        case .pipes, .mergedPipe:
            let outputPipe = Pipe()
            process.standardOutput = outputPipe
            sources.append((outputPipe.fileHandleForReading, .output))
            childEnds.append(outputPipe.fileHandleForWriting)
            if case .pipes = output {
                let errorPipe = Pipe()
                process.standardError = errorPipe
                sources.append((errorPipe.fileHandleForReading, .errors))
                childEnds.append(errorPipe.fileHandleForWriting)
            } else {
                process.standardError = outputPipe
            }
        case .terminal(let rows, let columns):
            var primary: Int32 = -1
            var secondary: Int32 = -1
            var size = winsize(ws_row: rows, ws_col: columns, ws_xpixel: 0, ws_ypixel: 0)
            guard openpty(&primary, &secondary, nil, nil, &size) == 0 else {
                throw ChildProcessError("cannot open a pseudo-terminal for \(command): errno \(errno)")
            }
            let terminal = FileHandle(fileDescriptor: secondary, closeOnDealloc: true)
            process.standardOutput = terminal
            process.standardError = terminal
            sources.append((FileHandle(fileDescriptor: primary, closeOnDealloc: true), .output))
            childEnds.append(terminal)
        }
        try process.run()
        for end in childEnds { try? end.close() }
        for (handle, stream) in sources {
            captured.open(stream)
            let captured = self.captured
            // The thread keeps the handle, which closes its descriptor when released.
            Thread.detachNewThread {
                captured.drain(handle.fileDescriptor, into: stream)
            }
        }
        if case .text(let text) = input, let handle = self.input {
            try handle.write(contentsOf: Data(text.utf8))
            try handle.close()
        }
    }

    deinit {
        if process.isRunning { kill() }
    }

    /// The process identifier.
    public var identifier: Int32 { process.processIdentifier }

    public var isRunning: Bool { process.isRunning }

    /// Writes `text` to standard input (started with ``Input/pipe``).
    public func write(_ text: String) throws {
        guard let input else { throw ChildProcessError("\(command) was started without an input pipe") }
        try input.write(contentsOf: Data(text.utf8))
    }

    /// Closes standard input: the process reads its end.
    public func closeInput() {
        try? input?.close()
    }

    /// Sends `signal` to the process.
    public func send(_ signal: Int32) {
        _ = Glibc.kill(process.processIdentifier, signal)
    }

    /// Sends SIGKILL (the process gets no chance to clean up) and waits for it to be gone.
    public func kill() {
        send(SIGKILL)
        process.waitUntilExit()
    }

    /// The next `count` bytes of standard output after those returned before, or what came of
    /// them before `seconds` passed or the output ended.
    public func nextOutput(_ count: Int, within seconds: TimeInterval) -> String {
        let start = outputRead.withLock { $0 }
        let deadline = Date().addingTimeInterval(seconds)
        var bytes = captured.bytes(of: .output, from: start)
        while bytes.count < count, Date() < deadline, !captured.hasEnded(.output) {
            Thread.sleep(forTimeInterval: 0.005)
            bytes = captured.bytes(of: .output, from: start)
        }
        let taken = bytes.prefix(count)
        outputRead.withLock { $0 = start + taken.count }
        return String(decoding: taken, as: UTF8.self)
    }

    /// Waits for the process to exit and returns its status and everything it wrote.
    ///
    /// - Throws: ``ChildProcessError`` when it has not exited within `timeout` seconds (it is
    ///   then killed; the error shows what it wrote).
    public func finish(timeout: TimeInterval = 120) throws -> ProcessRun {
        closeInput()
        let deadline = Date().addingTimeInterval(timeout)
        while process.isRunning, Date() < deadline {
            Thread.sleep(forTimeInterval: 0.005)
        }
        let timedOut = process.isRunning
        if timedOut { kill() }
        process.waitUntilExit()
        // A process the child started may still hold the output open: wait a little, not forever.
        captured.waitForEnd(within: 10)
        let run = ProcessRun(
            status: process.terminationStatus,
            output: String(decoding: captured.bytes(of: .output, from: 0), as: UTF8.self),
            errors: String(decoding: captured.bytes(of: .errors, from: 0), as: UTF8.self)
        )
        if timedOut {
            throw ChildProcessError("\(command) did not finish within \(Int(timeout)) s; it wrote:\n\(run.output)\(run.errors)")
        }
        return run
    }

    /// Runs `executable` to the end (see ``init(_:_:environment:removing:input:output:)`` and
    /// ``finish(timeout:)``).
    public static func run(
        _ executable: String, _ arguments: [String] = [], environment: [String: String] = [:], removing: [String] = [],
        input: Input = .none, output: Output = .pipes, timeout: TimeInterval = 120
    ) throws -> ProcessRun {
        try ChildProcess(executable, arguments, environment: environment, removing: removing, input: input, output: output)
            .finish(timeout: timeout)
    }
}

extension ChildProcess {
    /// ``run(_:_:environment:removing:input:output:timeout:)`` waited for on a thread of its own,
    /// for async callers that run a process for long: waiting must not hold one of Swift
    /// concurrency's cooperative threads (a test run has one per core), or every other async test
    /// waits with it — and one that watches the clock meanwhile fails.
    public static func runOffThePool(
        _ executable: String, _ arguments: [String] = [], environment: [String: String] = [:], timeout: TimeInterval = 120
    ) async throws -> ProcessRun {
        try await withCheckedThrowingContinuation { continuation in
            Thread {
                continuation.resume(with: Result { try run(executable, arguments, environment: environment, timeout: timeout) })
            }.start()
        }
    }
}

/// What a process wrote and how it exited.
public struct ProcessRun: Sendable {
    /// The exit status (for a process killed by a signal, the signal's number).
    public var status: Int32
    /// Standard output (with ``ChildProcess/Output/mergedPipe`` or a terminal, standard error too).
    public var output: String
    /// Standard error (empty with ``ChildProcess/Output/mergedPipe`` or a terminal).
    public var errors: String

    public init(status: Int32, output: String, errors: String) {
        self.status = status
        self.output = output
        self.errors = errors
    }
}

/// A child process that could not be run, or did not finish in time.
public struct ChildProcessError: Error, CustomStringConvertible {
    public let description: String

    public init(_ description: String) {
        self.description = description
    }
}

/// The bytes read from a process's output streams so far, and which streams have ended.
private final class Captured: Sendable {
    enum Stream: Sendable {
        case output, errors
    }

    private struct State {
        var output: [UInt8] = []
        var errors: [UInt8] = []
        var open: [Stream] = []
    }

    private let state = Mutex(State())

    func open(_ stream: Stream) {
        state.withLock { $0.open.append(stream) }
    }

    /// Reads `descriptor` until it ends (end of file, or EIO once every holder of a terminal
    /// has closed it), appending to `stream`.
    func drain(_ descriptor: Int32, into stream: Stream) {
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            let count = read(descriptor, &buffer, buffer.count)
            if count < 0 && errno == EINTR { continue }
            if count <= 0 { break }
            state.withLock { state in
                switch stream {
                case .output: state.output.append(contentsOf: buffer[0..<count])
                case .errors: state.errors.append(contentsOf: buffer[0..<count])
                }
            }
        }
        state.withLock { state in
            if let index = state.open.firstIndex(of: stream) { state.open.remove(at: index) }
        }
    }

    func bytes(of stream: Stream, from offset: Int) -> [UInt8] {
        state.withLock { state in
            let bytes = stream == .output ? state.output : state.errors
            return offset < bytes.count ? Array(bytes[offset...]) : []
        }
    }

    func hasEnded(_ stream: Stream) -> Bool {
        state.withLock { !$0.open.contains(stream) }
    }

    func waitForEnd(within seconds: TimeInterval) {
        let deadline = Date().addingTimeInterval(seconds)
        while state.withLock({ !$0.open.isEmpty }), Date() < deadline {
            Thread.sleep(forTimeInterval: 0.005)
        }
    }
}
