import Foundation

/// A server the service rows start on loopback: `shop serve` or a peer. It runs under
/// coreutils' `timeout`, so it stops by itself even when the benchmark is killed; `stop()` ends
/// it sooner (SIGTERM, then SIGKILL), and so does the benchmark's exit (``ServerProcess/stopAll()``).
final class ServerProcess: @unchecked Sendable {
    let name: String
    private let process = Process()
    /// The pipe ``readLine(timeout:)`` reads, when standard output is read at all.
    private let output: Pipe?
    let log: URL

    /// The longest any server lives (the whole service run is bounded well under it).
    static let lifetime = 1800

    nonisolated(unsafe) private static var running: [ServerProcess] = []
    private static let lock = NSLock()

    /// Starts `program` with `arguments`, its standard error into `log`. Its standard output
    /// goes to a pipe that ``readLine(timeout:)`` reads when `readsOutput` (only `shop serve`'s
    /// ready line is read), else into `log` as well: a pipe nobody drains fills up (64 KiB) and
    /// then stalls a server that logs every request to standard output.
    init(
        _ name: String, program: String, arguments: [String], log: URL, readsOutput: Bool = false, environment: [String: String]? = nil
    ) throws {
        self.name = name
        self.log = log
        output = readsOutput ? Pipe() : nil
        let timeout = try Program.installed("timeout", package: "coreutils")
        process.executableURL = URL(fileURLWithPath: timeout.path)
        process.arguments = ["--kill-after=5", "\(Self.lifetime)", program] + arguments
        if let environment { process.environment = environment }
        process.standardInput = FileHandle.nullDevice
        _ = FileManager.default.createFile(atPath: log.path, contents: nil)
        let logFile = try FileHandle(forWritingTo: log)
        process.standardOutput = output ?? logFile
        process.standardError = logFile
        try process.run()
        Self.lock.withLock { Self.running.append(self) }
    }

    /// The server's own process id (the child of `timeout`).
    var serverPID: Int32? {
        let pid = process.processIdentifier
        guard let children = try? String(contentsOfFile: "/proc/\(pid)/task/\(pid)/children", encoding: .utf8) else { return nil }
        return children.split(separator: " ").first.flatMap { Int32($0) }
    }

    var isRunning: Bool { process.isRunning }

    /// The next line the server prints on standard output, waiting at most `timeout` seconds.
    func readLine(timeout: Double) throws -> String {
        guard let output else { throw BenchError("\(name)'s standard output goes to its log (\(log.path)), it is not read") }
        let fd = output.fileHandleForReading.fileDescriptor
        let deadline = Date().addingTimeInterval(timeout)
        var line = Data()
        var byte: UInt8 = 0
        while true {
            var poller = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            let left = Int32(max(0, deadline.timeIntervalSinceNow * 1000))
            guard poll(&poller, 1, left) > 0 else {
                throw BenchError("\(name) printed no line within \(timeout) s; its log: \(log.path)\n\(tail)")
            }
            guard read(fd, &byte, 1) == 1 else { throw BenchError("\(name) exited before printing a line; its log:\n\(tail)") }
            if byte == UInt8(ascii: "\n") { return String(decoding: line, as: UTF8.self) }
            line.append(byte)
        }
    }

    /// Resident memory of the server now (`VmRSS`) and at its peak (`VmHWM`), in MB.
    func memory() throws -> (resident: Double, peak: Double) {
        guard let pid = serverPID, let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8) else {
            throw BenchError("\(name) is not running; its log:\n\(tail)")
        }
        func megabytes(_ key: String) -> Double {
            let line = status.split(separator: "\n").first { $0.hasPrefix(key) }
            return (line?.split(separator: " ").dropFirst().first.flatMap { Double($0) } ?? .nan) / 1024
        }
        return (megabytes("VmRSS:"), megabytes("VmHWM:"))
    }

    /// SIGTERM, up to 10 s for a graceful exit, then SIGKILL.
    func stop() {
        Self.lock.withLock { Self.running.removeAll { $0 === self } }
        guard process.isRunning else { return }
        process.terminate()
        let deadline = Date().addingTimeInterval(10)
        while process.isRunning, Date() < deadline { usleep(10_000) }
        if process.isRunning {
            if let pid = serverPID { kill(pid, SIGKILL) }
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
        }
    }

    /// Stops every server still running: on the benchmark's exit, normal or by SIGINT/SIGTERM.
    static func stopAll() {
        for server in lock.withLock({ running }) { server.stop() }
    }

    /// Makes SIGINT and SIGTERM stop every server and exit (status 128 + the signal); keep the
    /// returned sources alive while that should hold.
    static func stopAllOnSignals() -> [any DispatchSourceSignal] {
        [SIGINT, SIGTERM].map { number in
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler {
                stopAll()
                exit(128 + number)
            }
            source.resume()
            return source
        }
    }

    /// The end of the server's log, for error messages.
    var tail: String {
        let text = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
        return text.split(separator: "\n").suffix(20).joined(separator: "\n")
    }

    /// A TCP port on 127.0.0.1 that is free now (the kernel's pick for port 0).
    static func freePort() throws -> Int {
        let socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard socket >= 0 else { throw BenchError("cannot open a socket: \(String(cString: strerror(errno)))") }
        defer { close(socket) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(socket, $0, length) == 0 && getsockname(socket, $0, &length) == 0 }
        }
        guard bound else { throw BenchError("cannot find a free port: \(String(cString: strerror(errno)))") }
        return Int(UInt16(bigEndian: address.sin_port))
    }
}
