import Foundation
import Testing

/// Runs a process with standard output and standard error on a pseudo-terminal (standard input
/// from /dev/null), as a person at a terminal would see it, and collects what it writes there.
enum PseudoTerminal {
    /// What `executable` wrote to the terminal of `rows` lines, and its exit status.
    static func run(
        _ executable: String, _ arguments: [String], environment: [String: String] = [:], rows: UInt16 = 24, timeout: TimeInterval = 60
    ) throws -> (status: Int32, text: String) {
        var primary: Int32 = -1, secondary: Int32 = -1
        var size = winsize(ws_row: rows, ws_col: 100, ws_xpixel: 0, ws_ypixel: 0)
        guard openpty(&primary, &secondary, nil, nil, &size) == 0 else {
            throw POSIXError(.init(rawValue: errno) ?? .EIO)
        }
        defer { close(primary) }
        let terminal = FileHandle(fileDescriptor: secondary, closeOnDealloc: true)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        var processEnvironment = ProcessInfo.processInfo.environment
        for key in ["SHOP_DB", "NO_COLOR", "PAGER"] { processEnvironment.removeValue(forKey: key) }
        processEnvironment["TERM"] = "xterm"
        processEnvironment.merge(environment) { $1 }
        process.environment = processEnvironment
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = terminal
        process.standardError = terminal
        try process.run()
        try terminal.close()
        // Read until every holder of the terminal has closed it (read then fails with EIO).
        var output: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            var poller = pollfd(fd: primary, events: Int16(POLLIN), revents: 0)
            guard poll(&poller, 1, 100) >= 0 else { break }
            if poller.revents == 0 { continue }
            let count = read(primary, &buffer, buffer.count)
            if count <= 0 { break }
            output.append(contentsOf: buffer[0..<count])
        }
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: output, as: UTF8.self).replacingOccurrences(of: "\r\n", with: "\n"))
    }
}
